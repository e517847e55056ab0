/**
 * Uploads and downloads (ADR-0109). The presigned upload URL binds the account (its key is under
 * the session's account), the key, the content type and the length: checked with SigV4 verified
 * from the specification (tests/support/sigv4.ts), independently of the local S3 stand-in's own
 * verifier (infra/local/emulators/sigv4-verifier.ts). A file's link serves it with a safe type and disposition, so an HTML page or an SVG
 * in the bucket never runs as a page: checked by fetching links from the S3 stand-in.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sigV4Problem } from '../support/sigv4.ts';
import { call, newOwner, type Member } from './api.ts';
import { setServiceStatus, workerPorts } from './worker.ts';

/** The local S3 stand-in's key pair (infra/local/runtime/runtime.ts gives it to the functions). */
const secret = 'S3RVER';
const html = '<!doctype html><script>document.title = "owned"</script>';

let owner: Member;
let serviceId: string;

beforeAll(async () => {
  owner = await newOwner('Loja Arquivos');
  const created = await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } });
  serviceId = created.body.id;
  await setServiceStatus(owner.accountId, serviceId, 'connected');
});

async function uploadUrl(body: Record<string, unknown>) {
  const answer = await call('POST', '/files/generate-url-to-upload', { token: owner.token, body: { serviceId, isPtt: false, ...body } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { urlToUpload: string; file: { id: string } };
}

describe('the presigned upload URL', () => {
  it('is signed over the key under the caller account, the content type, the length and the host', async () => {
    const length = Buffer.byteLength(html);
    const { urlToUpload, file } = await uploadUrl({ name: 'relatório.pdf', mimetype: 'application/pdf', length });
    const url = new URL(urlToUpload);
    expect(url.pathname).toBe(`/${inject('bucketName')}/accounts/${owner.accountId}/files/${file.id}/relato_rio.pdf`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(15 * 60);

    const headers = { 'content-type': 'application/pdf', 'content-length': String(length) };
    const put = { method: 'PUT', url: urlToUpload, headers };
    expect(sigV4Problem(put, secret)).toBeUndefined();
    // The verifier can fail: a wrong secret.
    expect(sigV4Problem(put, 'not-the-secret')).toBe('signature does not match');

    const otherAccount = urlToUpload.replace(`/accounts/${owner.accountId}/`, '/accounts/01AAAAAAAAAAAAAAAAAAAAAAAA/');
    const otherKey = urlToUpload.replace('/relato_rio.pdf', '/index.html');
    const changed: [string, Parameters<typeof sigV4Problem>[0]][] = [
      ['another account', { ...put, url: otherAccount }],
      ['another key', { ...put, url: otherKey }],
      ['another content type', { ...put, headers: { ...headers, 'content-type': 'text/html' } }],
      ['another length', { ...put, headers: { ...headers, 'content-length': String(length + 1) } }],
      ['no content type', { ...put, headers: { 'content-length': String(length) } }],
      ['a longer life', { ...put, url: urlToUpload.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800') }],
      ['another method', { ...put, method: 'GET' }],
    ];
    for (const [what, request] of changed) expect(sigV4Problem(request, secret), what).toBeDefined();
    // And once it has expired.
    expect(sigV4Problem(put, secret, new Date(Date.now() + 16 * 60 * 1000))).toBe('expired');
  });

  it('is refused for a connection of another account', async () => {
    const stranger = await newOwner('Outra Loja');
    const answer = await call('POST', '/files/generate-url-to-upload', {
      token: stranger.token,
      body: { serviceId, name: 'a.pdf', mimetype: 'application/pdf', length: 10, isPtt: false },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: 'serviceId', message: 'Conexão não encontrada' }]);
  });
});

describe('a file link', () => {
  async function sentFileUrl(name: string, mimetype: string, bytes: string): Promise<string> {
    const { urlToUpload, file } = await uploadUrl({ name, mimetype, length: Buffer.byteLength(bytes) });
    const put = await fetch(urlToUpload, { method: 'PUT', headers: { 'content-type': mimetype }, body: bytes });
    expect(put.status).toBe(200);
    const contact = await call('POST', '/contacts', {
      token: owner.token,
      body: { name: 'Cliente', serviceId, data: { phoneNumber: `5511987${String(Date.now()).slice(-6)}`, phoneCountry: 'BR' } },
    });
    const sent = await call('POST', '/messages/send', { token: owner.token, body: { contactId: contact.body.id, serviceId, fileId: file.id, text: '' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return sent.body.file.url;
  }

  it('serves a document as an attachment of its allowed type, whatever its bytes', async () => {
    const res = await fetch(await sentFileUrl('nota "fiscal".pdf', 'application/pdf', html));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="nota _fiscal_.pdf"; filename*=UTF-8''nota%20%22fiscal%22.pdf`);
    expect(new URL(res.url).origin).not.toBe(new URL(inject('baseUrl')).origin);
  });

  it('shows an image inline, as its type', async () => {
    const res = await fetch(await sentFileUrl('foto.png', 'image/png', 'not really a png'));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="foto.png"/);
  });

  it('never serves HTML or SVG a channel stored as such: octet-stream, attachment', async () => {
    const { storage } = workerPorts();
    for (const [name, mimetype] of [
      ['pagina.html', 'text/html'],
      ['desenho.svg', 'image/svg+xml'],
      ['script.js', 'text/javascript'],
      ['x', 'application/xhtml+xml'],
    ] as const) {
      const key = `accounts/${owner.accountId}/files/inbound-${name}/${name}`;
      await storage.put(key, Buffer.from(html), mimetype);
      const res = await fetch(await storage.downloadUrl(key, name, mimetype));
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition'), name).toMatch(/^attachment; /);
    }
  });
});
