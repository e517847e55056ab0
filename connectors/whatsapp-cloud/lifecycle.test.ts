/**
 * Checking credentials on save, starting and stopping Cloud API connections, against the Graph API
 * double and an in-process table (the WABA subscription's users are counted there).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorTexts } from '#contracts/errors.ts';
import { cloudCredentialTexts, serviceStopReasons, type CloudCredentials } from '#contracts/services.ts';
import { cloudCredentialsToken } from '#domain/channels/cloud-credentials.ts';
import { ChannelUnreachable, CredentialsRejected, type ChannelConnection } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import { type FakeGraphApi, type FakeNumber, startFakeGraphApi } from '../../tests/support/fake-graph-api.ts';
import { startLocalTable, type LocalTable } from '../../tests/support/local-table.ts';
import { whatsappCloudCredentials, whatsappCloudLifecycle } from './lifecycle.ts';

const APP_SECRET = '0123456789abcdef0123456789abcdef';

let fake: FakeGraphApi & { close(): Promise<void> };
let local: LocalTable;
let ports: Ports;
let token: string;
let number: FakeNumber;
let seq = 0;

const credentials = (over: Partial<CloudCredentials> = {}): CloudCredentials => ({
  phoneNumberId: number.phoneNumberId,
  wabaId: number.wabaId,
  accessToken: token,
  appSecret: APP_SECRET,
  ...over,
});
const run = (serviceId: string, creds: CloudCredentials) => ({
  accountId: 'A1',
  serviceId,
  type: 'whatsapp_cloud' as const,
  token: cloudCredentialsToken(creds),
  runId: `R-${serviceId}`,
  pairingPhone: null,
});
const connection = (serviceId: string, creds: CloudCredentials): ChannelConnection => ({
  accountId: 'A1',
  serviceId,
  type: 'whatsapp_cloud',
  token: cloudCredentialsToken(creds),
});
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('accepted'),
    (error: unknown) => error,
  );

beforeAll(async () => {
  fake = await startFakeGraphApi({ appSecret: APP_SECRET });
  process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
  local = await startLocalTable('cloud-lifecycle');
  ports = { ...local.ports, clock: () => new Date() } as unknown as Ports;
});
afterAll(async () => {
  delete process.env.WHATSAPP_CLOUD_GRAPH_URL;
  await fake.close();
  await local.close();
});
beforeEach(() => {
  token = `EAAGtoken${++seq}abcdefghijklmnop`;
  fake.addToken(token);
  number = fake.addNumber({ displayPhoneNumber: '+55 11 3000-1000', verifiedName: 'Doceria da Ana', qualityRating: 'YELLOW' });
});

describe('verification on save', () => {
  it('answers the number as Meta shows it', async () => {
    const profile = await whatsappCloudCredentials.verify(cloudCredentialsToken(credentials()));
    expect(profile).toEqual({ displayPhoneNumber: '+55 11 3000-1000', verifiedName: 'Doceria da Ana', qualityRating: 'YELLOW' });
    const read = fake.calls.find((call) => call.path === `/v23.0/${number.phoneNumberId}` && call.method === 'GET');
    expect(read).toMatchObject({ status: 200, token });
  });

  it('a token Meta refuses (190) is a field error on the token', async () => {
    const error = await rejection(whatsappCloudCredentials.verify(cloudCredentialsToken(credentials({ accessToken: 'EAAGnot-a-token-we-know-of' }))));
    expect(error).toBeInstanceOf(CredentialsRejected);
    expect((error as CredentialsRejected).details.field).toEqual({
      error: errorTexts.whatsappCloudCredentialsInvalid,
      path: 'accessToken',
      message: cloudCredentialTexts.accessTokenRejected,
    });
    fake.expireToken(token);
    const expired = (await rejection(whatsappCloudCredentials.verify(cloudCredentialsToken(credentials())))) as CredentialsRejected;
    expect(expired.details.field?.path).toBe('accessToken');
  });

  it('a phone number id the token cannot see is a field error on that id', async () => {
    const error = (await rejection(
      whatsappCloudCredentials.verify(cloudCredentialsToken(credentials({ phoneNumberId: '999999999999999' }))),
    )) as CredentialsRejected;
    expect(error.details.field).toMatchObject({ path: 'phoneNumberId', message: cloudCredentialTexts.phoneNumberNotFound });
    // A token of another business account cannot see this number either.
    const other = fake.addNumber({ displayPhoneNumber: '+55 21 3000-2000', verifiedName: 'Outra loja' });
    fake.addToken('EAAGtoken-of-the-other-business', { wabaIds: [other.wabaId] });
    const foreign = (await rejection(
      whatsappCloudCredentials.verify(cloudCredentialsToken(credentials({ accessToken: 'EAAGtoken-of-the-other-business' }))),
    )) as CredentialsRejected;
    expect(foreign.details.field?.path).toBe('phoneNumberId');
  });

  it('a WABA id that is wrong, or not the number’s, is a field error on the WABA id', async () => {
    const unknown = (await rejection(
      whatsappCloudCredentials.verify(cloudCredentialsToken(credentials({ wabaId: '888888888888888' }))),
    )) as CredentialsRejected;
    expect(unknown.details.field).toMatchObject({ path: 'wabaId', message: cloudCredentialTexts.wabaMismatch });
    const other = fake.addNumber({ displayPhoneNumber: '+55 21 3000-2000', verifiedName: 'Outra loja' });
    const mismatch = (await rejection(whatsappCloudCredentials.verify(cloudCredentialsToken(credentials({ wabaId: other.wabaId }))))) as CredentialsRejected;
    expect(mismatch.details.field).toMatchObject({ path: 'wabaId', message: cloudCredentialTexts.wabaMismatch });
  });

  it('Meta rate-limiting the account (80007) or out of reach is the channel unreachable, not the credentials', async () => {
    fake.throttleWaba(number.wabaId, 60_000);
    try {
      expect(await rejection(whatsappCloudCredentials.verify(cloudCredentialsToken(credentials())))).toBeInstanceOf(ChannelUnreachable);
    } finally {
      fake.clearThrottles();
    }
    process.env.WHATSAPP_CLOUD_GRAPH_URL = 'http://127.0.0.1:1';
    try {
      expect(await rejection(whatsappCloudCredentials.verify(cloudCredentialsToken(credentials())))).toBeInstanceOf(ChannelUnreachable);
    } finally {
      process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
    }
  });

  it('a number not registered on the Cloud API yet is registered with the form’s PIN, and the PIN is asked for when none was given', async () => {
    const pending = fake.addNumber({ wabaId: number.wabaId, displayPhoneNumber: '+55 11 3000-3000', verifiedName: 'Doceria da Ana', registered: false });
    const token = cloudCredentialsToken(credentials({ phoneNumberId: pending.phoneNumberId }));
    const asked = (await rejection(whatsappCloudCredentials.verify(token))) as CredentialsRejected;
    expect(asked).toBeInstanceOf(CredentialsRejected);
    expect(asked.details.field).toEqual({
      error: errorTexts.whatsappCloudCredentialsInvalid,
      path: 'registrationPin',
      message: cloudCredentialTexts.registrationPinRequired,
    });
    expect(pending.registered).toBe(false);

    const registers = () => fake.calls.filter((c) => c.path.endsWith(`/${pending.phoneNumberId}/register`)).length;
    await whatsappCloudCredentials.verify(token, { registrationPin: '246810' });
    expect(pending).toMatchObject({ registered: true, pin: '246810' });
    expect(registers()).toBe(1);
    // Registered now: saving again never registers it a second time (Meta allows 10 in 72 hours).
    await whatsappCloudCredentials.verify(token, { registrationPin: '246810' });
    expect(registers()).toBe(1);
  });

  it('Meta refusing the registration: not the number’s PIN (133005), too many registrations (133016)', async () => {
    const pending = fake.addNumber({ wabaId: number.wabaId, displayPhoneNumber: '+55 11 3000-4000', verifiedName: 'Doceria da Ana', registered: false });
    pending.pin = '111111';
    const token = cloudCredentialsToken(credentials({ phoneNumberId: pending.phoneNumberId }));
    const wrong = (await rejection(whatsappCloudCredentials.verify(token, { registrationPin: '222222' }))) as CredentialsRejected;
    expect(wrong.details.field).toMatchObject({ path: 'registrationPin', message: cloudCredentialTexts.registrationPinMismatch });
    for (let i = 0; i < 9; i++) await rejection(whatsappCloudCredentials.verify(token, { registrationPin: '222222' }));
    const limited = (await rejection(whatsappCloudCredentials.verify(token, { registrationPin: '111111' }))) as CredentialsRejected;
    expect(limited.details.field).toMatchObject({ path: 'registrationPin', message: cloudCredentialTexts.registrationLimit });
    expect(pending.registered).toBe(false);
    // 72 hours later Meta takes it again.
    fake.advance(72 * 60 * 60 * 1000);
    await whatsappCloudCredentials.verify(token, { registrationPin: '111111' });
    expect(pending.registered).toBe(true);
  });

  it('a number serves one connection: the claim is its phone number id', () => {
    expect(whatsappCloudCredentials.exclusive?.(cloudCredentialsToken(credentials()))).toMatchObject({
      kind: 'NUMBER',
      id: number.phoneNumberId,
      inUse: { error: errorTexts.whatsappCloudNumberInUse, path: 'phoneNumberId' },
    });
  });
});

describe('start and stop', () => {
  it('start subscribes the app to the WABA and reports connected', async () => {
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(false);
    await expect(whatsappCloudLifecycle.start(ports, run('S-start', credentials()))).resolves.toBe('connected');
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(true);
    await whatsappCloudLifecycle.stop(ports, connection('S-start', credentials()), { logout: false });
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(false);
  });

  it('two connections on one WABA: the app stays subscribed until the last one stops', async () => {
    const second = fake.addNumber({ wabaId: number.wabaId, displayPhoneNumber: '+55 11 3000-1001', verifiedName: 'Doceria da Ana (filial)' });
    const a = credentials();
    const b = credentials({ phoneNumberId: second.phoneNumberId });
    await whatsappCloudLifecycle.start(ports, run('S-a', a));
    await whatsappCloudLifecycle.start(ports, run('S-b', b));
    // A restart of one (stop, start) and a repeated stop keep the count right.
    await whatsappCloudLifecycle.stop(ports, connection('S-a', a), { logout: false });
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(true);
    await whatsappCloudLifecycle.stop(ports, connection('S-a', a), { logout: true });
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(true);
    await whatsappCloudLifecycle.stop(ports, connection('S-b', b), { logout: true });
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(false);
  });

  it('a token revoked since saving stops the start with the Cloud API’s reason', async () => {
    fake.revokeToken(token);
    const error = (await rejection(whatsappCloudLifecycle.start(ports, run('S-revoked', credentials())))) as CredentialsRejected;
    expect(error).toBeInstanceOf(CredentialsRejected);
    expect(error.details.stopReason).toBe(serviceStopReasons.cloudTokenRejected);
    expect(fake.wabas.get(number.wabaId)?.subscribed).toBe(false);
  });

  it('a failing subscription is the channel unreachable', async () => {
    fake.failNext('subscribed_apps', 80007);
    expect(await rejection(whatsappCloudLifecycle.start(ports, run('S-busy', credentials())))).toBeInstanceOf(ChannelUnreachable);
  });
});
