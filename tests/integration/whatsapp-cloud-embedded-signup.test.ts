/**
 * 'Conectar com a Meta' over HTTP (ADR-0217), against a runtime of the file's
 * own with the Graph API double as Meta and an operator's Meta app configured (META_APP_ID,
 * META_CONFIG_ID, META_APP_SECRET: the double's app). GET /whatsapp-cloud/embedded-signup tells
 * admins the app's ids (never its secret); POST exchanges Embedded Signup's code at
 * GET /oauth/access_token, registers the number (not a WhatsApp Business app number), checks it and
 * starts the connection, whose WABA is subscribed with an override to the connection's own URL (the
 * double runs Meta's handshake on it first), so Meta's deliveries reach it. A code Meta refuses
 * (never issued, used, expired) is a field error on `code` and connects nothing; a wrong app id is
 * the operator's problem ('The channel could not be reached'); nothing configured, nothing offered.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSignupTexts } from '#contracts/embedded-signup.ts';
import { errorTexts } from '#contracts/errors.ts';
import { cloudWebhookPath, maskToken } from '#contracts/services.ts';
import { keys } from '#db/keys.ts';
import { strongPassword, uniqueEmail } from './api.ts';
import { cloudGraphWorld } from './cloud-graph-world.ts';

const APP_SECRET = '9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const APP_ID = '1234567890123456';
const CONFIG_ID = '987654321012345';
const START = Math.floor(Date.now() / 1000) * 1000;

const metaEnv = { META_APP_ID: APP_ID, META_CONFIG_ID: CONFIG_ID, META_APP_SECRET: APP_SECRET };
beforeAll(() => {
  Object.assign(process.env, metaEnv);
});
afterAll(() => {
  for (const name of Object.keys(metaEnv)) delete process.env[name];
});

const world = cloudGraphWorld('conversa-cloud-signup-', { appSecret: APP_SECRET, start: START });
const { own } = world;
const call = own.call;

let seq = 0;

async function newOwner() {
  const person = await call('POST', '/auth/register', { body: { name: 'Dona da Padaria', email: uniqueEmail('signup'), password: strongPassword } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: 'Padaria' } });
  const token = account.body.accessToken as string;
  const accountId = account.body.id as string;
  await own.ports().table.doc.send(
    new UpdateCommand({
      TableName: own.ports().table.name,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 5, connections: 5, contacts: 1000 } },
    }),
  );
  return { token, accountId };
}

/** A number a business just made in Meta's window, and the code Embedded Signup handed the browser. */
function signup(options: { registered?: boolean; coexistence?: boolean } = {}) {
  const fake = world.fake();
  const number = fake.addNumber({
    displayPhoneNumber: `+55 21 4${String(++seq).padStart(3, '0')}-0000`,
    verifiedName: 'Padaria Pão Quente',
    registered: options.registered ?? false,
    coexistence: options.coexistence ?? false,
  });
  const { code, token } = fake.issueSignupCode({ wabaIds: [number.wabaId] });
  return { number, code, token };
}

const servicesOf = async (token: string) => (await call('GET', '/services', { token })).body.data as { id: string }[];

describe('Embedded Signup over HTTP', () => {
  it('answers admins the Meta app ids (never the secret) and refuses members', async () => {
    const owner = await newOwner();
    const config = await call('GET', '/whatsapp-cloud/embedded-signup', { token: owner.token });
    expect(config.status).toBe(200);
    expect(config.body).toEqual({ available: true, appId: APP_ID, configId: CONFIG_ID });
    expect(JSON.stringify(config.body)).not.toContain(APP_SECRET);
    const memberEmail = uniqueEmail('membro');
    await call('POST', '/users', { token: owner.token, body: { name: 'Caixa', email: memberEmail, password: strongPassword, isAdmin: false } });
    const member = await call('POST', '/auth/login', { body: { email: memberEmail, password: strongPassword } });
    expect((await call('GET', '/whatsapp-cloud/embedded-signup', { token: member.body.accessToken })).status).toBe(403);
    expect((await call('POST', '/whatsapp-cloud/embedded-signup', { token: member.body.accessToken, body: {} })).status).toBe(403);
  });

  it('exchanges the code, registers the number, subscribes the WABA to the connection’s own URL and receives there', async () => {
    const fake = world.fake();
    fake.verifyOverrides = true;
    const owner = await newOwner();
    const { number, code, token } = signup();
    const made = await call('POST', '/whatsapp-cloud/embedded-signup', {
      token: owner.token,
      body: { name: 'Oficial', code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, coexistence: false },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ type: 'whatsapp_cloud', status: 'connected', verifiedName: 'Padaria Pão Quente' });
    // Meta's steps with the business token the code stood for: registered with a six-digit PIN, subscribed with the override.
    const exchange = fake.calls.find((c) => c.method === 'GET' && c.path.endsWith('/oauth/access_token'));
    expect(exchange?.status).toBe(200);
    expect(fake.calls.some((c) => c.method === 'POST' && c.path.endsWith(`/${number.phoneNumberId}/register`) && c.token === token && c.status === 200)).toBe(
      true,
    );
    expect(fake.numbers.get(number.phoneNumberId)).toMatchObject({ registered: true, pin: expect.stringMatching(/^\d{6}$/) });
    const waba = fake.wabas.get(number.wabaId)!;
    const service = await call('GET', `/services/${made.body.id}`, { token: owner.token });
    expect(waba).toMatchObject({ subscribed: true, overrideCallbackUri: `${own.runtime().url}${cloudWebhookPath(made.body.id)}` });
    expect(waba.overrideVerifyToken).toBe(service.body.webhook.verifyToken);
    // The connection holds the operator's app secret: Meta's deliveries to the override are signed with it and accepted.
    expect(service.body.internalData.appSecret).toBe(maskToken(APP_SECRET));
    const [delivery] = await fake.deliver(
      fake.inbound(number.phoneNumberId, { waId: '5521977776666', name: 'Cliente' }, { type: 'text', body: 'Tem pão de queijo?' }).payload,
    );
    expect(delivery!.url).toBe(waba.overrideCallbackUri);
    expect(delivery!.status).toBe(204);
  });

  it('onboards a WhatsApp Business app number (coexistence): the WABA’s only number, not registered again', async () => {
    const fake = world.fake();
    const owner = await newOwner();
    const { number, code } = signup({ registered: true, coexistence: true });
    const made = await call('POST', '/whatsapp-cloud/embedded-signup', {
      token: owner.token,
      body: { name: 'Loja', code, wabaId: number.wabaId, coexistence: true },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'connected', internalData: { phoneNumberId: number.phoneNumberId, wabaId: number.wabaId } });
    expect(fake.calls.some((c) => c.path.endsWith(`/${number.phoneNumberId}/register`))).toBe(false);
  });

  it('keeps the connection, disconnected with its reason, when the start fails after the code was spent', async () => {
    const fake = world.fake();
    const owner = await newOwner();
    const { number, code } = signup();
    fake.failNext('subscribed_apps', 80007);
    const made = await call('POST', '/whatsapp-cloud/embedded-signup', {
      token: owner.token,
      body: { name: 'Oficial', code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, coexistence: false },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ status: 'disconnected', statusReason: expect.any(String), verifiedName: 'Padaria Pão Quente' });
    expect(fake.numbers.get(number.phoneNumberId)?.registered).toBe(true);
    // 'Iniciar' connects it once Meta answers.
    expect((await call('POST', `/services/${made.body.id}/start`, { token: owner.token })).body.status).toBe('connected');
  });

  it('refuses a code Meta refuses (never issued, used, expired) on the code field, connecting nothing', async () => {
    const fake = world.fake();
    const owner = await newOwner();
    const refused = { message: errorTexts.whatsappCloudCredentialsInvalid, details: [{ path: 'code', message: embeddedSignupTexts.codeRefused }] };
    const { number, code } = signup();
    const body = { name: 'Oficial', wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, coexistence: false };

    const unknown = await call('POST', '/whatsapp-cloud/embedded-signup', { token: owner.token, body: { ...body, code: 'AQnot-a-code-Meta-issued' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject(refused);
    expect(fake.calls.at(-1)).toMatchObject({ path: expect.stringMatching(/\/oauth\/access_token$/), status: 400 });

    expect((await call('POST', '/whatsapp-cloud/embedded-signup', { token: owner.token, body: { ...body, code } })).status).toBe(201);
    const used = await call('POST', '/whatsapp-cloud/embedded-signup', { token: owner.token, body: { ...body, name: 'De novo', code } });
    expect(used.status).toBe(400);
    expect(used.body).toMatchObject(refused);

    const late = signup();
    fake.advance(31_000);
    const expired = await call('POST', '/whatsapp-cloud/embedded-signup', {
      token: owner.token,
      body: { ...body, code: late.code, wabaId: late.number.wabaId, phoneNumberId: late.number.phoneNumberId },
    });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject(refused);
    expect(fake.numbers.get(late.number.phoneNumberId)?.registered).toBe(false);
    expect(await servicesOf(owner.token)).toHaveLength(1);
  });

  it('answers a wrong app id as the channel unreachable, and a payload without the WABA as invalid', async () => {
    const owner = await newOwner();
    const { number, code } = signup();
    process.env.META_APP_ID = '1111111111111111';
    try {
      const wrongApp = await call('POST', '/whatsapp-cloud/embedded-signup', {
        token: owner.token,
        body: { name: 'Oficial', code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, coexistence: false },
      });
      expect(wrongApp.status).toBe(400);
      expect(wrongApp.body.message).toBe(errorTexts.channelUnreachable);
    } finally {
      process.env.META_APP_ID = APP_ID;
    }
    const noWaba = await call('POST', '/whatsapp-cloud/embedded-signup', { token: owner.token, body: { name: 'Oficial', code, coexistence: false } });
    expect(noWaba.status).toBe(400);
    expect(noWaba.body.details.map((d: { path: string }) => d.path)).toContain('wabaId');
    expect(await servicesOf(owner.token)).toHaveLength(0);
  });

  it('offers nothing where no Meta app is configured', async () => {
    const owner = await newOwner();
    delete process.env.META_CONFIG_ID;
    try {
      expect((await call('GET', '/whatsapp-cloud/embedded-signup', { token: owner.token })).body).toEqual({ available: false });
      const { number, code } = signup();
      const refused = await call('POST', '/whatsapp-cloud/embedded-signup', {
        token: owner.token,
        body: { name: 'Oficial', code, wabaId: number.wabaId, phoneNumberId: number.phoneNumberId, coexistence: false },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([{ path: 'code', message: embeddedSignupTexts.notConfigured }]);
    } finally {
      process.env.META_CONFIG_ID = CONFIG_ID;
    }
  });
});
