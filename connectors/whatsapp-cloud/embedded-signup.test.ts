/**
 * The server's half of Embedded Signup against the Graph API double (ADR-0217):
 * the code exchanged for the business token with the app's id and secret, Meta's refusals mapped
 * (a code's on the `code` field; the app's own credentials as the channel unreachable), the WABA's
 * only number found, the registration with a six-digit PIN; and the WABA override given at start
 * only to a connection on the operator's app (webhook-override.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { cloudWebhookPath, type CloudCredentials } from '#contracts/services.ts';
import { putCloudWebhookStep } from '#db/cloud-webhooks.ts';
import { writeTogether } from '#db/transaction.ts';
import { ChannelUnreachable, CredentialsRejected } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { type FakeGraphApi, startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { startLocalTable, type LocalTable } from '../../tests/support/local-table.ts';
import { whatsappCloudEmbeddedSignup as signup } from './embedded-signup.ts';
import { webhookOverride } from './webhook-override.ts';

const APP_SECRET = 'abcdef0123456789abcdef0123456789';
const OTHER_SECRET = '0123456789abcdef0123456789abcdef';

let fake: FakeGraphApi & { close(): Promise<void> };
let local: LocalTable;
let ports: Ports;
const app = () => ({ appId: fake.appId, appSecret: APP_SECRET });
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('accepted'),
    (error: unknown) => error,
  );

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET });
  process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
  local = await startLocalTable('cloud-embedded-signup');
  ports = { ...local.ports, clock: () => new Date() } as unknown as Ports;
});
afterAll(async () => {
  delete process.env.WHATSAPP_CLOUD_GRAPH_URL;
  await fake.close();
  await local.close();
});

describe('the code exchange', () => {
  it('answers the business token the code stands for, once', async () => {
    const number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-0001', verifiedName: 'Loja' });
    const { code, token } = fake.issueSignupCode({ wabaIds: [number.wabaId] });
    expect(await signup.exchangeCode(app(), code)).toBe(token);
    const call = fake.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'GET', path: '/v23.0/oauth/access_token', status: 200 });
    // No Bearer token: the app's credentials and the code travel in the query, as Meta's example.
    expect(call.token).toBeUndefined();
    const again = await rejection(signup.exchangeCode(app(), code));
    expect(again).toBeInstanceOf(CredentialsRejected);
    expect((again as CredentialsRejected).details.field).toMatchObject({ path: 'code', message: embeddedSignupTexts.codeRefused });
  });

  it('refuses an unknown or expired code on the code field, and a wrong app as unreachable', async () => {
    const unknown = await rejection(signup.exchangeCode(app(), 'AQnever-issued'));
    expect((unknown as CredentialsRejected).details.field?.path).toBe('code');
    const { code } = fake.issueSignupCode();
    fake.advance(30_001);
    const expired = await rejection(signup.exchangeCode(app(), code));
    expect((expired as CredentialsRejected).message).toMatch(/36007/);
    const fresh = fake.issueSignupCode();
    expect(await rejection(signup.exchangeCode({ appId: '1111111111111111', appSecret: APP_SECRET }, fresh.code))).toBeInstanceOf(ChannelUnreachable);
    expect(await rejection(signup.exchangeCode({ appId: fake.appId, appSecret: OTHER_SECRET }, fresh.code))).toBeInstanceOf(ChannelUnreachable);
  });
});

describe('the number', () => {
  it('is the WABA’s only one, and a WABA with two names none', async () => {
    const number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-0002', verifiedName: 'Loja' });
    const { token } = fake.issueSignupCode({ wabaIds: [number.wabaId] });
    expect(await signup.onlyNumber(token, number.wabaId)).toBe(number.phoneNumberId);
    fake.addNumber({ displayPhoneNumber: '+55 11 3000-0003', verifiedName: 'Loja', wabaId: number.wabaId });
    const two = await rejection(signup.onlyNumber(token, number.wabaId));
    expect((two as CredentialsRejected).details.field).toMatchObject({ path: 'phoneNumberId', message: embeddedSignupTexts.numberNotFound });
  });

  it('is registered with a six-digit PIN, the business token as Bearer, only while Meta says it is not', async () => {
    const number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-0004', verifiedName: 'Loja', registered: false });
    const { token } = fake.issueSignupCode({ wabaIds: [number.wabaId] });
    await signup.register(token, number.phoneNumberId);
    expect(fake.numbers.get(number.phoneNumberId)).toMatchObject({ registered: true, pin: expect.stringMatching(/^\d{6}$/) });
    expect(fake.calls.at(-1)).toMatchObject({ method: 'POST', path: `/v23.0/${number.phoneNumberId}/register`, token, status: 200 });
    // Connected again later (the connection deleted and made anew): registered already, its PIN kept.
    const pin = fake.numbers.get(number.phoneNumberId)!.pin;
    await signup.register(token, number.phoneNumberId);
    expect(fake.calls.filter((c) => c.path.endsWith(`/${number.phoneNumberId}/register`))).toHaveLength(1);
    expect(fake.numbers.get(number.phoneNumberId)!.pin).toBe(pin);
  });
});

describe('the WABA override', () => {
  const credentials = (appSecret: string): CloudCredentials => ({
    phoneNumberId: '106540352242922',
    wabaId: '102290129340398',
    accessToken: 'EAAGx'.padEnd(30, 'x'),
    appSecret,
  });

  it('is the connection’s own URL and verify token, for a connection on the operator’s app only', async () => {
    await writeTogether(ports.table, {
      hook: putCloudWebhookStep({ accountId: 'A1', serviceId: 'S1', verifyToken: 'v'.repeat(43) }, new Date().toISOString()),
    });
    // Nothing without the public origin or the operator's secret.
    expect(await webhookOverride(ports, 'S1', credentials(APP_SECRET))).toBeNull();
    process.env.WHATSAPP_CLOUD_WEBHOOK_BASE_URL = 'https://app.example.com/';
    process.env.META_APP_SECRET = APP_SECRET;
    try {
      expect(await webhookOverride(ports, 'S1', credentials(APP_SECRET))).toEqual({
        override_callback_uri: `https://app.example.com${cloudWebhookPath('S1')}`,
        verify_token: 'v'.repeat(43),
      });
      // A tenant's own app keeps the app-level URL its admin pasted.
      expect(await webhookOverride(ports, 'S1', credentials(OTHER_SECRET))).toBeNull();
      // A connection without its webhook record has no token to give Meta.
      expect(await webhookOverride(ports, 'S2', credentials(APP_SECRET))).toBeNull();
    } finally {
      delete process.env.WHATSAPP_CLOUD_WEBHOOK_BASE_URL;
      delete process.env.META_APP_SECRET;
    }
  });
});
