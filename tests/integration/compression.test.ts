/**
 * The API's JSON answers compressed for the request's Accept-Encoding (ADR-0167), over the local
 * gateway: the raw bytes are read with node:http (fetch would decode them), decoded here, and must be
 * exactly the answer to the same request without Accept-Encoding.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { listQueryString } from '#contracts/list-query.ts';
import { call, proTeam } from './api.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function raw(method: string, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${inject('baseUrl')}/api${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const firstNames = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Iara', 'João', 'Kátia', 'Luís', 'Marta'];
const lastNames = ['Souza', 'Oliveira', 'Pereira', 'Lima', 'Carvalho', 'Ferreira', 'Rodrigues', 'Almeida', 'Nascimento', 'Araújo', 'Ribeiro'];
const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

let token: string;
let listPath: string;

beforeAll(async () => {
  const team = await proTeam();
  token = team.owner.token;
  const service = await call('POST', '/services', { token, body: { name: 'Zap', type: 'whatsapp' } });
  expect(service.status).toBe(201);
  for (let i = 0; i < 50; i += 5) {
    await Promise.all(
      Array.from({ length: 5 }, (_, j) =>
        call('POST', '/contacts', {
          token,
          body: {
            name: `${firstNames[(i + j) % firstNames.length]} ${lastNames[(i * 7 + j) % lastNames.length]}`,
            serviceId: service.body.id,
            data: {
              phoneNumber: `+55 ${11 + ((i + j) % 80)} 9${String(10_000_000 + (i + j) * 7_919_311).slice(-8)}`,
              phoneCountry: 'br',
              email: `cliente.${(i + j) * 37}@example.com`,
            },
          },
        }).then((a) => expect(a.status).toBe(201)),
      ),
    );
  }
  const include = ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'];
  listPath = `/contacts${listQueryString({ where: { archivedAt: null }, include, perPage: 50, withCount: true })}`;
}, 60_000);

describe('API answer compression', () => {
  it.each(['br', 'gzip'] as const)('sends the 50-contact list with %s when asked, decoding to the plain answer', async (coding) => {
    const plain = await raw('GET', listPath, { authorization: `Bearer ${token}` });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(plain.bytes.toString('utf8')).data).toHaveLength(50);

    const packed = await raw('GET', listPath, { authorization: `Bearer ${token}`, 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip, br;q=0' });
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe(coding);
    expect(packed.headers.vary).toBe('Accept-Encoding');
    expect(packed.headers['cache-control']).toBe('no-store');
    expect(packed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(packed.headers['content-length'])).toBe(packed.bytes.length);
    expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(decode[coding](packed.bytes).toString('utf8')).toBe(plain.bytes.toString('utf8'));
  });

  it('sends identity when the codings are refused, and leaves small answers alone', async () => {
    const refused = await raw('GET', listPath, { authorization: `Bearer ${token}`, 'accept-encoding': 'identity, *;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(refused.bytes.toString('utf8')).data).toHaveLength(50);

    const small = await raw('GET', '/auth/me', { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toMatchObject({ user: expect.any(Object) });
  });

  it('compresses a large error answer too, which the web client reads as it reads any (fetch decodes it)', async () => {
    // 20 invalid tag ids: the catalogue's 400 with one detail each, over the threshold.
    const payload = JSON.stringify({ tagIds: Array.from({ length: 20 }, (_, i) => i) });
    const init = { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: payload };
    const plain = await fetch(`${inject('baseUrl')}/api/contacts/nope/tags`, init);
    const plainText = await plain.text();
    expect(plain.status).toBe(400);
    expect(Buffer.byteLength(plainText)).toBeGreaterThanOrEqual(1024);
    expect(JSON.parse(plainText)).toMatchObject({ statusCode: 400, error: 'Bad Request', details: expect.any(Array) });

    const packed = await fetch(`${inject('baseUrl')}/api/contacts/nope/tags`, { ...init, headers: { ...init.headers, 'accept-encoding': 'br, gzip' } });
    expect(packed.status).toBe(400);
    expect(packed.headers.get('content-encoding')).toBe('br');
    expect(packed.headers.get('vary')).toBe('Accept-Encoding');
    expect(await packed.text()).toBe(plainText);

    const small = await raw('GET', '/contacts/nope', { authorization: `Bearer ${token}`, 'accept-encoding': 'br' });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
