import { startLocalRuntime } from '../infra/local/runtime.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const rt = await startLocalRuntime({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'micro-')) });
const api = async (m: string, p: string, body?: unknown, token?: string) => {
  const r = await fetch(rt.url + '/api' + p, { method: m, headers: { 'content-type': 'application/json', ...(token ? { authorization: 'Bearer ' + token } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return r.json() as any;
};
const reg = await api('POST', '/auth/register', { name: 'A', email: 'a@b.com', password: 'Senha#Forte1' });
const acc = await api('POST', '/accounts', { name: 'X' }, reg.accessToken);
const token = acc.accessToken;
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
await doc.send(new UpdateCommand({ TableName: 'conversa', Key: { pk: `ACCOUNT#${acc.id}`, sk: 'ACCOUNT' }, UpdateExpression: 'SET #p = :p', ExpressionAttributeNames: { '#p': 'plan' }, ExpressionAttributeValues: { ':p': { productName: 'Pro', users: 10, connections: 5, contacts: 25000 } } }));
const svc = await api('POST', '/services', { name: 'Z', type: 'whatsapp' }, token);
for (let i = 0; i < 100; i++) await api('POST', '/contacts', { name: 'Contato ' + i, serviceId: svc.id, data: { phoneNumber: '55119' + String(80000000 + i), phoneCountry: 'BR' } }, token);
const time = async (label: string, fn: () => Promise<unknown>, n = 100) => {
  for (let i = 0; i < 10; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, ((performance.now() - t) / n).toFixed(2), 'ms');
};
await time('GET /auth/me', () => api('GET', '/auth/me', undefined, token));
await time('GET /services', () => api('GET', '/services', undefined, token));
await time('GET /contacts', () => api('GET', '/contacts', undefined, token));
await time('GET /users', () => api('GET', '/users', undefined, token));
await rt.stop();
