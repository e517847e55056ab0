/**
 * The route matrix's table: for every route of functions/http/routes.ts, who may call it (its access
 * class), the status a valid request answers and how to build that request from a team's fixtures.
 * routes.ts carries no access metadata, so this table is the single place that states it; the test
 * fails for a route without an entry and for an entry without a route, and checks each class against
 * the gate its handler declares (`api({ auth })`).
 */
import { defaultAutomationSettings } from '#contracts/automations.ts';
import { call, proTeam, setPlan, signIn, strongPassword, uniqueBotToken, uniqueEmail } from './api.ts';
import { setServiceStatus } from './worker.ts';

/**
 * public: anyone, no token. signedIn: any valid session. member: a member of the session's account.
 * selfOrAdmin: a member on themselves, an admin on others. admin: the account's admins (the owner is
 * one). owner: the account's owner only. webhook: no bearer token; the provider's signature decides.
 */
export type AccessClass = 'public' | 'signedIn' | 'member' | 'selfOrAdmin' | 'admin' | 'owner' | 'webhook';

/** The gates (`api({ auth })`) a handler of each class may declare; finer checks live in the domain. */
export const gatesOf: Record<AccessClass, (string | undefined)[]> = {
  public: ['public'],
  webhook: [undefined, 'public'],
  signedIn: ['signedIn'],
  member: ['member'],
  selfOrAdmin: ['member'],
  admin: ['admin', 'member'],
  owner: ['admin', 'member'],
};

export interface Person {
  id: string;
  email: string;
  token: string;
}

/** One account with its people and items. `spare*` give a target a destructive row may consume. */
export interface Team {
  accountId: string;
  owner: Person;
  admin: Person;
  member: Person;
  /** A connected WhatsApp connection. */
  serviceId: string;
  /** A Telegram connection, never started (so its webhook is not registered). */
  telegramServiceId: string;
  contactId: string;
  contactPhone: string;
  messageId: string;
  spareUser(): Promise<string>;
  spareContact(): Promise<string>;
  spareService(): Promise<string>;
  /** Every id of the team's account, for checking that nobody else's answers carry them. */
  ids(): string[];
}

let phones = 0;
const newPhone = () => `55119${String(Date.now() % 10_000).padStart(4, '0')}${String(++phones).padStart(4, '0')}`;

async function must(answer: Promise<{ status: number; body: any }>, status: number, what: string): Promise<any> {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what}: ${got.status} ${JSON.stringify(got.body)}`);
  return got.body;
}

/**
 * A Pro team with a connection, a contact and a message. With `disposable`, each spare is made on
 * demand (rows of the team's own callers may delete it); without, each spare is made once up front
 * and stays (the victim account, whose items only strangers touch).
 */
export async function matrixTeam(disposable: boolean): Promise<Team> {
  const t = await proTeam();
  await setPlan(t.owner.accountId, { productName: 'Pro', users: 50, connections: 30, contacts: 1000 });
  const token = t.owner.token;
  const made: string[] = [];
  const newUser = async () => {
    const body = await must(
      call('POST', '/users', { token, body: { name: 'Alvo', email: uniqueEmail('alvo'), password: strongPassword, isAdmin: false } }),
      201,
      'spare user',
    );
    made.push(body.id);
    return body.id as string;
  };
  const newService = async () => {
    const body = await must(call('POST', '/services', { token, body: { name: 'Zap', type: 'whatsapp' } }), 201, 'service');
    made.push(body.id);
    return body.id as string;
  };
  const serviceId = await newService();
  await setServiceStatus(t.owner.accountId, serviceId, 'connected');
  const telegram = await must(call('POST', '/services', { token, body: { name: 'Bot', type: 'telegram', token: uniqueBotToken() } }), 201, 'telegram');
  made.push(telegram.id);
  const contactPhone = newPhone();
  const newContact = async (phoneNumber = newPhone()) => {
    const body = await must(
      call('POST', '/contacts', { token, body: { name: 'Cliente', serviceId, data: { phoneNumber, phoneCountry: 'BR' } } }),
      201,
      'contact',
    );
    made.push(body.id);
    return body.id as string;
  };
  const contactId = await newContact(contactPhone);
  const message = await must(call('POST', '/messages/send', { token, body: { contactId, serviceId, text: 'Oi' } }), 201, 'message');
  made.push(message.id);
  const once = async (make: () => Promise<string>) => {
    const id = await make();
    return async () => id;
  };
  return {
    accountId: t.owner.accountId,
    owner: { id: t.owner.user.id, email: t.owner.email, token },
    admin: t.admin,
    member: t.member,
    serviceId,
    telegramServiceId: telegram.id,
    contactId,
    contactPhone,
    messageId: message.id,
    spareUser: disposable ? newUser : await once(newUser),
    spareContact: disposable ? () => newContact() : await once(() => newContact()),
    spareService: disposable ? newService : await once(newService),
    ids: () => [t.owner.accountId, t.owner.user.id, t.admin.id, t.member.id, ...made],
  };
}

/** The team as rows that must change nothing see it: targets are the shared items, no spares are made. */
export const withoutSpares = (t: Team): Team => ({
  ...t,
  spareUser: async () => t.member.id,
  spareContact: async () => t.contactId,
  spareService: async () => t.serviceId,
});

/** A new token for one of the team's people (for rows that revoke the caller's own). */
export const freshToken = (team: Team, who: Person) => signIn(who.email, strongPassword, team.accountId);

export interface Request {
  path: string;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

/** `caller` is the person making the call (undefined for unauthenticated and stranger rows). */
type Build = (team: Team, caller: Person | undefined) => Request | Promise<Request>;

export interface MatrixEntry {
  access: AccessClass;
  /** Status of a valid request by an allowed caller. */
  ok: number;
  /** Status when the owner of another account sends this request with the team's ids; default 404. */
  stranger?: number;
  build: Build;
  /** The row consumes the caller's token (logout): each caller gets a fresh one. */
  revokesToken?: boolean;
  /** The row ends the team (deleting the account): it runs on a team of its own. */
  ownTeam?: boolean;
}

/** The team inbox's catalogue items of an account (docs/product.md#team-inbox), made once per account by its owner. */
const inboxFixtures = new Map<string, Promise<{ departmentId: string; tagId: string; quickReplyId: string }>>();
let named = 0;
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${process.pid}${++named}`;
const newTag = async (t: Team) =>
  (await must(call('POST', '/tags', { token: t.owner.token, body: { name: uniqueName('Etiqueta '), color: '#047857' } }), 201, 'tag')).id as string;
const newQuickReply = async (t: Team) =>
  (await must(call('POST', '/quick-replies', { token: t.owner.token, body: { shortcut: uniqueName('r'), text: 'Olá {{nome}}' } }), 201, 'quick reply'))
    .id as string;
const scheduleBody = (t: Team) => ({ contactId: t.contactId, text: 'Seu boleto vence amanhã', date: '2099-01-10', time: '09:00', repeat: 'once' });
const newSchedule = async (t: Team) =>
  (await must(call('POST', '/scheduled-messages', { token: t.owner.token, body: scheduleBody(t) }), 201, 'scheduled message')).id as string;
const newSegment = async (t: Team) =>
  (await must(call('POST', '/segments', { token: t.owner.token, body: { name: uniqueName('Segmento '), where: { optedOutAt: null } } }), 201, 'segment'))
    .id as string;
const campaignBody = (t: Team) => ({
  name: uniqueName('Campanha '),
  audience: { kind: 'contacts', contactIds: [t.contactId] },
  serviceIds: [t.serviceId],
  message: { text: 'Olá {{primeiro_nome}}' },
  startAt: '2099-01-01T12:00:00.000Z',
  window: { kind: 'business-hours' },
  pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
});
const newCampaign = async (t: Team) => (await must(call('POST', '/campaigns', { token: t.owner.token, body: campaignBody(t) }), 201, 'campaign')).id as string;
/** A webhook to a private address: the sender refuses it at once, so no test reaches the network. */
const webhookBody = { url: 'https://10.255.255.1/webhook', description: 'ERP', eventTypes: ['message.created'] };
/**
 * A fresh webhook of the team's. The oldest go first, one build at a time (a row's builds run side
 * by side), so the matrix's rows stay under the account's 10.
 */
let webhookBuilds: Promise<unknown> = Promise.resolve();
function newWebhook(t: Team): Promise<string> {
  const made = webhookBuilds.then(async () => {
    const listed = await must(call('GET', '/webhook-subscriptions', { token: t.owner.token }), 200, 'webhook subscriptions');
    for (const old of (listed.data as { id: string }[]).slice(0, -2)) await call('DELETE', `/webhook-subscriptions/${old.id}`, { token: t.owner.token });
    return (await must(call('POST', '/webhook-subscriptions', { token: t.owner.token, body: webhookBody }), 201, 'webhook subscription')).id as string;
  });
  webhookBuilds = made.catch(() => undefined);
  return made;
}
/** An API token made by the team's owner (ADR-0232): its id and its secret, shown once. */
export const newApiToken = async (t: Team, scopes: string[] = ['contacts:read']): Promise<{ id: string; secret: string }> => {
  const made = await must(call('POST', '/api-tokens', { token: t.owner.token, body: { name: uniqueName('Token '), scopes } }), 201, 'api token');
  return { id: made.token.id, secret: made.secret };
};
/** A contact import of the team's account, its CSV uploaded when `upload` (POST /contact-imports, then the presigned PUT). */
async function newImport(t: Team, upload = false): Promise<string> {
  const csv = 'nome;telefone\r\nAna;11987654321\r\n';
  const made = await must(call('POST', '/contact-imports', { token: t.owner.token, body: { name: 'contatos.csv', length: csv.length } }), 201, 'import');
  if (upload) {
    const put = await fetch(made.urlToUpload, { method: 'PUT', headers: { 'content-type': made.mimetype }, body: csv });
    if (!put.ok) throw new Error(`import upload: ${put.status}`);
  }
  return made.import.id as string;
}
function inboxOf(t: Team) {
  let made = inboxFixtures.get(t.accountId);
  if (!made) {
    made = (async () => {
      const department = await must(
        call('POST', '/departments', { token: t.owner.token, body: { name: uniqueName('Financeiro '), userIds: [] } }),
        201,
        'department',
      );
      return { departmentId: department.id as string, tagId: await newTag(t), quickReplyId: await newQuickReply(t) };
    })();
    inboxFixtures.set(t.accountId, made);
  }
  return made;
}

const path =
  (p: string): Build =>
  () => ({ path: p });
const listQuery = (query: unknown) => `?query=${encodeURIComponent(JSON.stringify(query))}`;

export const routeAccess: Record<string, MatrixEntry> = {
  'POST /auth/register': {
    access: 'public',
    ok: 201,
    build: () => ({ path: '/auth/register', body: { name: 'Nova', email: uniqueEmail('matrix'), password: strongPassword } }),
  },
  'POST /auth/login': {
    access: 'public',
    ok: 200,
    build: (t) => ({ path: '/auth/login', body: { email: t.member.email, password: strongPassword, accountId: t.accountId } }),
  },
  'POST /auth/logout': { access: 'signedIn', ok: 204, stranger: 204, revokesToken: true, build: path('/auth/logout') },
  'GET /auth/me': { access: 'signedIn', ok: 200, stranger: 200, build: path('/auth/me') },
  // The realtime link's one-time ticket, for the caller's own session (any session, no ids in it).
  'POST /ws-ticket': { access: 'signedIn', ok: 200, stranger: 200, build: path('/ws-ticket') },
  'POST /auth/switch-account': {
    access: 'signedIn',
    ok: 200,
    build: (t) => ({ path: '/auth/switch-account', body: { accountId: t.accountId } }),
  },
  'POST /auth/forgot-password': { access: 'public', ok: 204, build: (t) => ({ path: '/auth/forgot-password', body: { email: t.member.email } }) },
  // A wrong code: the valid request of someone who does not hold the mailbox.
  'POST /auth/reset-password': {
    access: 'public',
    ok: 400,
    build: (t) => ({ path: '/auth/reset-password', body: { email: t.member.email, verifyCode: '000000', password: strongPassword } }),
  },
  'POST /auth/verify-email': { access: 'public', ok: 400, build: (t) => ({ path: '/auth/verify-email', body: { userId: t.member.id, verifyCode: '000000' } }) },
  'POST /auth/resend-verification': { access: 'public', ok: 204, build: (t) => ({ path: '/auth/resend-verification', body: { userId: t.member.id } }) },

  'GET /accounts': { access: 'signedIn', ok: 200, stranger: 200, build: path('/accounts') },
  'POST /accounts': { access: 'signedIn', ok: 201, stranger: 201, build: () => ({ path: '/accounts', body: { name: 'Outra loja' } }) },
  'GET /accounts/{id}': { access: 'member', ok: 200, build: (t) => ({ path: `/accounts/${t.accountId}` }) },
  'PUT /accounts/{id}': { access: 'admin', ok: 200, build: (t) => ({ path: `/accounts/${t.accountId}`, body: { name: 'Equipe Pro' } }) },
  'DELETE /accounts/{id}': { access: 'owner', ok: 204, ownTeam: true, build: (t) => ({ path: `/accounts/${t.accountId}` }) },
  'GET /accounts/{id}/usage': { access: 'member', ok: 200, build: (t) => ({ path: `/accounts/${t.accountId}/usage` }) },
  'POST /accounts/{id}/exports': { access: 'admin', ok: 201, build: (t) => ({ path: `/accounts/${t.accountId}/exports` }) },
  'GET /accounts/{id}/exports/{exportId}': {
    access: 'admin',
    ok: 200,
    build: async (t) => {
      const started = await must(call('POST', `/accounts/${t.accountId}/exports`, { token: t.owner.token }), 201, 'export');
      return { path: `/accounts/${t.accountId}/exports/${started.id}` };
    },
  },

  // Lists answer the stranger 200 with their own account's items (no victim id, checked on every stranger row).
  'GET /users': { access: 'member', ok: 200, stranger: 200, build: path('/users') },
  'POST /users': {
    access: 'admin',
    ok: 201,
    // The account comes from the session: a stranger's user lands in their own account.
    stranger: 201,
    build: (t) => ({ path: '/users', body: { name: 'Nova', email: uniqueEmail('novo'), password: strongPassword, isAdmin: false, accountId: t.accountId } }),
  },
  'GET /users/{id}': { access: 'member', ok: 200, build: (t) => ({ path: `/users/${t.member.id}` }) },
  'PUT /users/{id}': {
    access: 'selfOrAdmin',
    ok: 200,
    build: (t) => ({ path: `/users/${t.member.id}`, body: { name: 'Membro', email: t.member.email } }),
  },
  'DELETE /users/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/users/${await t.spareUser()}` }) },
  'POST /users/{id}/archive': { access: 'admin', ok: 200, build: async (t) => ({ path: `/users/${await t.spareUser()}/archive`, body: { archive: true } }) },

  'GET /services': { access: 'member', ok: 200, stranger: 200, build: path('/services') },
  'POST /services': { access: 'admin', ok: 201, stranger: 201, build: () => ({ path: '/services', body: { name: 'Zap', type: 'whatsapp' } }) },
  'GET /services/{id}': { access: 'member', ok: 200, build: (t) => ({ path: `/services/${t.serviceId}` }) },
  'PUT /services/{id}': { access: 'admin', ok: 200, build: (t) => ({ path: `/services/${t.serviceId}`, body: { name: 'Zap' } }) },
  'DELETE /services/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/services/${await t.spareService()}` }) },
  // The shared runtime's channel double does not run connections: every action on one answers 400
  // 'This connection type cannot be started yet' (services.test.ts and telegram.test.ts cover the 200s).
  'POST /services/{id}/start': { access: 'admin', ok: 400, build: async (t) => ({ path: `/services/${await t.spareService()}/start` }) },
  'POST /services/{id}/restart': { access: 'admin', ok: 400, build: async (t) => ({ path: `/services/${await t.spareService()}/restart` }) },
  'POST /services/{id}/shutdown': { access: 'admin', ok: 400, build: async (t) => ({ path: `/services/${await t.spareService()}/shutdown` }) },
  'POST /services/{id}/logout': { access: 'admin', ok: 400, build: async (t) => ({ path: `/services/${await t.spareService()}/logout` }) },
  'POST /services/{id}/pairing-code': {
    access: 'admin',
    ok: 400,
    build: async (t) => ({ path: `/services/${await t.spareService()}/pairing-code`, body: { phoneNumber: '+5511987654321' } }),
  },

  // The matrix's connections are QR and Telegram ones: they have no templates, so every template
  // write answers 400 'This connection does not use message templates' (whatsapp-cloud-templates.test.ts
  // covers the 2xx against the Graph API double); a list answers the connection's (none).
  'GET /services/{id}/templates': { access: 'member', ok: 200, build: (t) => ({ path: `/services/${t.serviceId}/templates` }) },
  'POST /services/{id}/templates': {
    access: 'admin',
    ok: 400,
    build: (t) => ({
      path: `/services/${t.serviceId}/templates`,
      body: { name: 'pedido_enviado', category: 'UTILITY', body: 'Olá {{1}}, seu pedido saiu.', examples: ['Joana'] },
    }),
  },
  'POST /services/{id}/templates/sync': { access: 'admin', ok: 400, build: (t) => ({ path: `/services/${t.serviceId}/templates/sync` }) },
  'DELETE /services/{id}/templates/{templateId}': { access: 'admin', ok: 400, build: (t) => ({ path: `/services/${t.serviceId}/templates/123456` }) },
  // The shared runtime has no Meta app configured: Embedded Signup is not offered and a connect is refused (whatsapp-cloud-embedded-signup.test.ts has one).
  'GET /whatsapp-cloud/embedded-signup': { access: 'admin', ok: 200, stranger: 200, build: () => ({ path: '/whatsapp-cloud/embedded-signup' }) },
  'POST /whatsapp-cloud/embedded-signup': {
    access: 'admin',
    ok: 400,
    stranger: 400,
    build: () => ({ path: '/whatsapp-cloud/embedded-signup', body: { name: 'Oficial', code: 'AQcode', wabaId: '102290129340398', coexistence: false } }),
  },

  'GET /contacts': { access: 'member', ok: 200, stranger: 200, build: (t) => ({ path: `/contacts${listQuery({ where: { serviceId: t.serviceId } })}` }) },
  // A stranger naming the victim's connection: 400, 'Conexão não encontrada' on serviceId.
  'POST /contacts': {
    access: 'member',
    ok: 201,
    stranger: 400,
    build: (t) => ({ path: '/contacts', body: { name: 'Nova', serviceId: t.serviceId, data: { phoneNumber: newPhone(), phoneCountry: 'BR' } } }),
  },
  'GET /contacts/{id}': { access: 'member', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}` }) },
  'PUT /contacts/{id}': {
    access: 'member',
    ok: 200,
    build: (t) => ({
      path: `/contacts/${t.contactId}`,
      body: { name: 'Cliente', serviceId: t.serviceId, data: { phoneNumber: t.contactPhone, phoneCountry: 'BR' } },
    }),
  },
  'DELETE /contacts/{id}': { access: 'member', ok: 204, build: async (t) => ({ path: `/contacts/${await t.spareContact()}` }) },
  'POST /contacts/{id}/archive': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/contacts/${await t.spareContact()}/archive`, body: { archive: true } }),
  },
  'POST /contacts/{id}/read': { access: 'member', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/read` }) },
  'GET /contacts/{id}/export': { access: 'admin', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/export` }) },
  'GET /contact-imports': { access: 'admin', ok: 200, stranger: 200, build: path('/contact-imports') },
  'POST /contact-imports': {
    access: 'admin',
    ok: 201,
    stranger: 201,
    build: () => ({ path: '/contact-imports', body: { name: 'contatos.csv', length: 30 } }),
  },
  'GET /contact-imports/{id}': { access: 'admin', ok: 200, build: async (t) => ({ path: `/contact-imports/${await newImport(t)}` }) },
  'GET /contact-imports/{id}/preview': { access: 'admin', ok: 200, build: async (t) => ({ path: `/contact-imports/${await newImport(t, true)}/preview` }) },
  'POST /contact-imports/{id}/start': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({
      path: `/contact-imports/${await newImport(t, true)}/start`,
      body: { serviceId: t.serviceId, mapping: ['name', 'phone'], dryRun: true },
    }),
  },
  'DELETE /contacts/{id}/opt-out': { access: 'admin', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/opt-out` }) },
  'POST /contacts/csv-export': {
    access: 'admin',
    ok: 200,
    stranger: 200,
    build: (t) => ({ path: `/contacts/csv-export${listQuery({ where: { serviceId: t.serviceId } })}` }),
  },
  'GET /segments': { access: 'member', ok: 200, stranger: 200, build: path('/segments') },
  'POST /segments': {
    access: 'admin',
    ok: 201,
    stranger: 201,
    build: () => ({ path: '/segments', body: { name: uniqueName('Segmento '), where: { archivedAt: null } } }),
  },
  'GET /segments/{id}': { access: 'member', ok: 200, build: async (t) => ({ path: `/segments/${await newSegment(t)}` }) },
  'PUT /segments/{id}': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/segments/${await newSegment(t)}`, body: { name: uniqueName('Segmento '), where: { optedOutAt: { ne: null } } } }),
  },
  'DELETE /segments/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/segments/${await newSegment(t)}` }) },

  // Outbound webhooks (ADR-0233): admins only; a stranger naming the team's subscription finds none (404).
  'GET /webhook-subscriptions': { access: 'admin', ok: 200, stranger: 200, build: path('/webhook-subscriptions') },
  'POST /webhook-subscriptions': { access: 'admin', ok: 201, stranger: 201, build: () => ({ path: '/webhook-subscriptions', body: webhookBody }) },
  'GET /webhook-subscriptions/{id}': { access: 'admin', ok: 200, build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}` }) },
  'PUT /webhook-subscriptions/{id}': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}`, body: { ...webhookBody, enabled: false } }),
  },
  'DELETE /webhook-subscriptions/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}` }) },
  'POST /webhook-subscriptions/{id}/rotate-secret': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}/rotate-secret` }),
  },
  'POST /webhook-subscriptions/{id}/enable': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}/enable` }),
  },
  'GET /webhook-subscriptions/{id}/deliveries': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}/deliveries` }),
  },
  'POST /webhook-subscriptions/{id}/test': { access: 'admin', ok: 200, build: async (t) => ({ path: `/webhook-subscriptions/${await newWebhook(t)}/test` }) },

  // 'Tokens de API' (ADR-0232): admins only; a stranger naming the team's token finds none (404).
  'GET /api-tokens': { access: 'admin', ok: 200, stranger: 200, build: path('/api-tokens') },
  'POST /api-tokens': { access: 'admin', ok: 201, stranger: 201, build: () => ({ path: '/api-tokens', body: { name: 'n8n', scopes: ['contacts:read'] } }) },
  'DELETE /api-tokens/{id}': { access: 'admin', ok: 200, build: async (t) => ({ path: `/api-tokens/${(await newApiToken(t)).id}` }) },
  'GET /api-tokens/{id}/calls': { access: 'admin', ok: 200, build: async (t) => ({ path: `/api-tokens/${(await newApiToken(t)).id}/calls` }) },

  // A stranger naming the team's connection: 400 on serviceIds (not found in their account).
  'GET /campaigns': { access: 'member', ok: 200, stranger: 200, build: path('/campaigns') },
  'POST /campaigns': { access: 'admin', ok: 201, stranger: 400, build: (t) => ({ path: '/campaigns', body: campaignBody(t) }) },
  'POST /campaigns/plan': { access: 'admin', ok: 200, stranger: 400, build: (t) => ({ path: '/campaigns/plan', body: campaignBody(t) }) },
  'GET /campaigns/{id}': { access: 'member', ok: 200, build: async (t) => ({ path: `/campaigns/${await newCampaign(t)}` }) },
  'GET /campaigns/{id}/recipients': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/campaigns/${await newCampaign(t)}/recipients?outcome=skipped` }),
  },
  'POST /campaigns/{id}/status': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/campaigns/${await newCampaign(t)}/status`, body: { action: 'cancel' } }),
  },

  // where.contactId names a contact the stranger's account does not have: 404.
  'GET /messages': { access: 'member', ok: 200, build: (t) => ({ path: `/messages${listQuery({ where: { contactId: t.contactId } })}` }) },
  'POST /messages/send': {
    access: 'member',
    ok: 201,
    build: (t) => ({ path: '/messages/send', body: { contactId: t.contactId, serviceId: t.serviceId, text: 'Oi' } }),
  },
  // The message was not refused by the channel, so there is nothing to retry.
  'POST /messages/{id}/retry': { access: 'member', ok: 400, build: (t) => ({ path: `/messages/${t.messageId}/retry`, body: { contactId: t.contactId } }) },
  // The world's message never reached a channel (no channel id), so there is nothing to react to on it.
  'POST /messages/{id}/forward': {
    access: 'member',
    ok: 201,
    build: (t) => ({ path: `/messages/${t.messageId}/forward`, body: { contactId: t.contactId, toContactIds: [t.contactId] } }),
  },
  'GET /contacts/{id}/scheduled-messages': { access: 'member', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/scheduled-messages` }) },
  'POST /scheduled-messages': { access: 'member', ok: 201, build: (t) => ({ path: '/scheduled-messages', body: scheduleBody(t) }) },
  'PUT /scheduled-messages/{id}': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/scheduled-messages/${await newSchedule(t)}`, body: { ...scheduleBody(t), text: 'Lembrete: boleto amanhã' } }),
  },
  'POST /scheduled-messages/{id}/cancel': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/scheduled-messages/${await newSchedule(t)}/cancel`, body: { contactId: t.contactId } }),
  },
  'POST /messages/{id}/reaction': {
    access: 'member',
    ok: 400,
    build: (t) => ({ path: `/messages/${t.messageId}/reaction`, body: { contactId: t.contactId, emoji: '👍' } }),
  },

  'POST /files/generate-url-to-upload': {
    access: 'member',
    ok: 200,
    stranger: 400,
    build: (t) => ({
      path: '/files/generate-url-to-upload',
      body: { name: 'a.pdf', mimetype: 'application/pdf', serviceId: t.serviceId, length: 10, isPtt: false },
    }),
  },

  // The team inbox (docs/product.md#team-inbox). Rows that would change whom a conversation belongs to work on spare contacts.
  'GET /departments': { access: 'member', ok: 200, stranger: 200, build: path('/departments') },
  'POST /departments': { access: 'admin', ok: 201, stranger: 201, build: () => ({ path: '/departments', body: { name: uniqueName('Vendas '), userIds: [] } }) },
  'GET /departments/{id}': { access: 'member', ok: 200, build: async (t) => ({ path: `/departments/${(await inboxOf(t)).departmentId}` }) },
  'PUT /departments/{id}': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/departments/${(await inboxOf(t)).departmentId}`, body: { name: `Financeiro ${t.accountId}`, userIds: [t.member.id] } }),
  },
  'POST /departments/{id}/archive': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/departments/${(await inboxOf(t)).departmentId}/archive`, body: { archive: false } }),
  },
  'GET /tags': { access: 'member', ok: 200, stranger: 200, build: path('/tags') },
  'POST /tags': { access: 'admin', ok: 201, stranger: 201, build: () => ({ path: '/tags', body: { name: uniqueName('VIP '), color: '#b91c1c' } }) },
  'PUT /tags/{id}': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({ path: `/tags/${(await inboxOf(t)).tagId}`, body: { name: `VIP ${t.accountId}`, color: '#1d4ed8' } }),
  },
  'DELETE /tags/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/tags/${await newTag(t)}` }) },
  'PUT /contacts/{id}/tags': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/contacts/${t.contactId}/tags`, body: { tagIds: [(await inboxOf(t)).tagId] } }),
  },
  'POST /contacts/{id}/take': { access: 'member', ok: 200, build: async (t) => ({ path: `/contacts/${await t.spareContact()}/take` }) },
  'POST /contacts/{id}/transfer': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/contacts/${await t.spareContact()}/transfer`, body: { userId: t.admin.id, note: 'Cliente quer boleto' } }),
  },
  // Nobody has the team's contact: releasing it changes nothing and answers it.
  'POST /contacts/{id}/release': { access: 'member', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/release` }) },
  'POST /contacts/{id}/status': { access: 'member', ok: 200, build: (t) => ({ path: `/contacts/${t.contactId}/status`, body: { status: 'pending' } }) },
  'POST /messages/notes': { access: 'member', ok: 201, build: (t) => ({ path: '/messages/notes', body: { contactId: t.contactId, text: 'Nota da equipe' } }) },
  'GET /inbox/counts': {
    access: 'member',
    ok: 200,
    stranger: 200,
    build: (t) => ({ path: `/inbox/counts${listQuery({ where: { serviceId: t.serviceId } })}` }),
  },
  'GET /inbox/settings': { access: 'member', ok: 200, stranger: 200, build: path('/inbox/settings') },
  'PUT /inbox/settings': { access: 'admin', ok: 200, stranger: 200, build: () => ({ path: '/inbox/settings', body: { membersSeeAll: false } }) },
  'GET /business-hours': { access: 'member', ok: 200, stranger: 200, build: path('/business-hours') },
  'PUT /business-hours': {
    access: 'admin',
    ok: 200,
    stranger: 200,
    build: () => ({ path: '/business-hours', body: { timeZone: 'America/Sao_Paulo', shifts: [{ weekday: 1, start: '09:00', end: '17:00' }] } }),
  },
  'GET /automations': { access: 'member', ok: 200, stranger: 200, build: path('/automations') },
  // The session's account's figures (a member's own): a stranger reads their own account's.
  'GET /reports': { access: 'member', ok: 200, stranger: 200, build: path('/reports?from=2026-11-01&to=2026-11-27&compare=previous') },
  'POST /reports/rebuild': {
    access: 'admin',
    ok: 200,
    stranger: 200,
    build: () => ({ path: '/reports/rebuild', body: { from: '2026-11-20', to: '2026-11-27' } }),
  },
  'PUT /automations': {
    access: 'admin',
    ok: 200,
    // The settings are the session's account's: a stranger saves their own (the department named is the team's: refused).
    stranger: 400,
    build: async (t) => ({
      path: '/automations',
      body: {
        ...defaultAutomationSettings,
        waitingTooLong: { enabled: true, minutes: 30, departmentId: (await inboxOf(t)).departmentId },
        roundRobin: { enabled: true, maxOpenPerAgent: 3 },
      },
    }),
  },
  'GET /services/{id}/menu': { access: 'member', ok: 200, build: (t) => ({ path: `/services/${t.serviceId}/menu` }) },
  'PUT /services/{id}/menu': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({
      path: `/services/${t.serviceId}/menu`,
      body: {
        enabled: true,
        menus: [
          {
            id: 'inicio',
            text: 'Escolha:',
            options: [{ key: '1', label: 'Financeiro', action: { kind: 'department', departmentId: (await inboxOf(t)).departmentId } }],
          },
        ],
        invalidText: 'Opção inválida',
        timeoutMinutes: 10,
        timeoutDepartmentId: null,
      },
    }),
  },
  'GET /quick-replies': { access: 'member', ok: 200, stranger: 200, build: path('/quick-replies') },
  'POST /quick-replies': {
    access: 'admin',
    ok: 201,
    stranger: 201,
    build: () => ({ path: '/quick-replies', body: { shortcut: uniqueName('a'), text: 'Bom dia, {{primeiro_nome}}!' } }),
  },
  'PUT /quick-replies/{id}': {
    access: 'admin',
    ok: 200,
    build: async (t) => ({
      path: `/quick-replies/${(await inboxOf(t)).quickReplyId}`,
      body: { shortcut: `boleto${t.accountId.slice(-8).toLowerCase()}`, text: 'Segue o boleto' },
    }),
  },
  'DELETE /quick-replies/{id}': { access: 'admin', ok: 204, build: async (t) => ({ path: `/quick-replies/${await newQuickReply(t)}` }) },
  'POST /quick-replies/{id}/render': {
    access: 'member',
    ok: 200,
    build: async (t) => ({ path: `/quick-replies/${(await inboxOf(t)).quickReplyId}/render`, body: { contactId: t.contactId } }),
  },

  // The read batch: any session may send one, each GET then meets its own route's gate. Built from
  // the team's ids, so a stranger's batch answers 200 with each read's 404 and, as every row, none
  // of the victim's ids (read-batch.test.ts checks the sub-answers one by one).
  'POST /batch': {
    access: 'signedIn',
    ok: 200,
    stranger: 200,
    build: (t) => ({
      path: '/batch',
      body: {
        requests: [
          { path: `/contacts/${t.contactId}` },
          { path: `/accounts/${t.accountId}` },
          { path: `/users/${t.member.id}` },
          { path: '/messages', query: { query: JSON.stringify({ where: { contactId: t.contactId } }) } },
          { path: '/tags' },
        ],
      },
    }),
  },

  // The shared runtime has no Stripe key: every payment call an allowed caller makes answers 503.
  'GET /payments/products': { access: 'member', ok: 503, stranger: 503, build: path('/payments/products') },
  'POST /payments/create-checkout-session': { access: 'admin', ok: 503, stranger: 503, build: () => ({ path: '/payments/create-checkout-session', body: {} }) },
  'GET /payments/checkout-session': { access: 'member', ok: 503, stranger: 503, build: path('/payments/checkout-session?sessionId=cs_test_matrix') },
  'POST /payments/portal-session': { access: 'admin', ok: 503, stranger: 503, build: path('/payments/portal-session') },

  // Public: the channel workers' count and freshest beat, no account's data (smoke.test.ts checks its body).
  'GET /health': { access: 'public', ok: 200, build: path('/health') },

  // Unconfigured here (503 before the signature); with Stripe, a bad signature is 400 (billing.test.ts).
  'POST /webhooks/stripe': {
    access: 'webhook',
    ok: 503,
    build: (_t, caller) => ({
      path: '/webhooks/stripe',
      body: { id: 'evt_matrix', type: 'invoice.paid' },
      headers: caller ? { 'stripe-signature': 't=1,v1=forged' } : {},
    }),
  },
  // The shared runtime's channel double stands in for every adapter and has no webhook: 404 before
  // any secret is read. telegram.test.ts runs the real adapter and asserts 401 for a missing or wrong one.
  'POST /webhooks/telegram/{serviceId}': {
    access: 'webhook',
    ok: 404,
    build: (t, caller) => ({
      path: `/webhooks/telegram/${t.telegramServiceId}`,
      body: { update_id: 1, message: { message_id: 1, date: 1, chat: { id: 1, type: 'private' }, text: 'Oi' } },
      headers: caller ? { 'x-telegram-bot-api-secret-token': 'forged' } : {},
    }),
  },
  // The same double has no Cloud API webhook either: 404 before any verify token or signature is
  // read. whatsapp-cloud-webhook.test.ts runs the real adapter (403 for a wrong verify token, 401
  // for a missing or wrong signature).
  'GET /webhooks/whatsapp-cloud/{serviceId}': {
    access: 'webhook',
    ok: 404,
    build: (t, caller) => ({
      path: `/webhooks/whatsapp-cloud/${t.telegramServiceId}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${caller ? 'forged' : ''}`,
    }),
  },
  'POST /webhooks/whatsapp-cloud/{serviceId}': {
    access: 'webhook',
    ok: 404,
    build: (t, caller) => ({
      path: `/webhooks/whatsapp-cloud/${t.telegramServiceId}`,
      body: { object: 'whatsapp_business_account', entry: [] },
      headers: caller ? { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } : {},
    }),
  },
};
