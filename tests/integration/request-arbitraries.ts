/**
 * Generators of requests for the property tests (request-properties.test.ts): one per request
 * schema of shared/contracts, keyed by the schema object a handler declares (`api({ body, query })`),
 * one for the list query language built from a route's list rules, and one for path segments.
 * Each mixes values a form would send (the team's own ids, valid e-mails and phones, boundary
 * lengths) with values nobody should send (other accounts' ids, wrong types, huge or odd strings,
 * prototype keys, broken JSON), so most runs reach the domain and the rest test the edges.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { batchPayload } from '#contracts/batch-payload.ts';
import { checkoutPayload, checkoutSessionQuery } from '#contracts/payments.ts';
import { accountPayload } from '#contracts/accounts.ts';
import {
  forgotPasswordPayload,
  loginPayload,
  registerPayload,
  resendVerificationPayload,
  resetPasswordPayload,
  switchAccountPayload,
  verifyEmailPayload,
} from '#contracts/auth.ts';
import { contactImportRequest, contactImportSettings } from '#contracts/contact-imports.ts';
import { contactArchivePayload, contactPayload } from '#contracts/contacts.ts';
import { uploadRequestPayload } from '#contracts/files.ts';
import { forwardMessagePayload, reactMessagePayload, retryMessagePayload, sendMessagePayload } from '#contracts/messages.ts';
import { servicePairingPayload } from '#contracts/pairing.ts';
import { cloudWebhookHandshakeQuery, serviceCreatePayload, serviceUpdatePayload } from '#contracts/services.ts';
import { userArchivePayload, userCreatePayload, userUpdatePayload } from '#contracts/users.ts';
import { departmentArchivePayload, departmentPayload } from '#contracts/departments.ts';
import { contactTagsPayload, tagPayload } from '#contracts/tags.ts';
import { automationSettingsSchema, connectionMenuSchema } from '#contracts/automations.ts';
import { businessHoursSchema } from '#contracts/business-hours.ts';
import { conversationStatusPayload, inboxSettingsPayload, notePayload, transferPayload } from '#contracts/conversations.ts';
import { quickReplyPayload, quickReplyRenderPayload } from '#contracts/quick-replies.ts';
import { templatePayload } from '#contracts/templates.ts';
import { embeddedSignupPayload } from '#contracts/embedded-signup.ts';
import { segmentPayload } from '#contracts/segments.ts';
import { campaignMovePayload, campaignPayload, campaignRecipientsQuery } from '#contracts/campaigns.ts';
import { cancelScheduledMessagePayload, scheduleMessagePayload } from '#contracts/scheduled-messages.ts';
import { reportQuerySchema, reportRebuildSchema } from '#contracts/reports.ts';
import { webhookEventTypes, webhookSubscriptionPayload } from '#contracts/webhooks.ts';
import { apiTokenPayload, apiTokenScopes } from '#contracts/api-tokens.ts';
import { contactListRules } from '#domain/contacts/contacts.ts';
import type { ListRules } from '#domain/list-query.ts';
import { strongPassword } from './api.ts';

/** The ids and addresses a generator may name: the caller's team, and another account. */
export interface Fixtures {
  accountId: string;
  ownerId: string;
  userIds: string[];
  emails: string[];
  serviceId: string;
  telegramServiceId: string;
  contactId: string;
  contactPhone: string;
  messageId: string;
  /** Ids of another account (account, users, connections, contacts, messages). */
  foreignIds: string[];
  foreignEmail: string;
}

const MB = 1024 * 1024;

/** Strings no form sends: empty, blank, control characters, lone surrogates, path tricks, huge. */
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', ' ', '\t\n', '\u0000', '__proto__', 'constructor', '../../x', '%00', '<svg onload=alert(1)>', '😀'.repeat(70), 'x'.repeat(65)),
  fc.integer({ min: 100, max: 20_000 }).map((n) => 'a'.repeat(n)),
);

/** Any JSON value, with a bias to the odd strings. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, [], {}),
);

const absent = Symbol('absent');

/**
 * An object with these fields, each one usually a good value, sometimes a hostile one and
 * sometimes missing; now and then with keys the schema does not know (prototype keys included).
 */
function shaped(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const names = Object.keys(fields);
  const values = names.map((name) =>
    fc.option(fc.oneof({ weight: 6, arbitrary: fields[name]! }, { weight: 1, arbitrary: hostile }), { freq: 8, nil: absent as unknown }),
  );
  const extras = fc.option(
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'accountId', 'isAdmin', 'id', 'ownerId', 'plan'), hostile, { maxKeys: 2 }),
    {
      freq: 5,
      nil: {},
    },
  );
  const object = fc.tuple(fc.tuple(...values), extras).map(([chosen, extra]) => {
    const out: Record<string, unknown> = {};
    // defineProperty: a `__proto__` key stays an own key, as JSON.parse makes it on the server.
    for (const [key, value] of Object.entries(extra)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    chosen.forEach((value, i) => {
      if (value !== absent) Object.defineProperty(out, names[i]!, { value, enumerable: true, writable: true, configurable: true });
    });
    return out;
  });
  return fc.oneof({ weight: 12, arbitrary: object }, { weight: 1, arbitrary: hostile });
}

const idOf = (f: Fixtures, own: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, fc.constantFrom(...f.foreignIds), oddString);
const email = (f: Fixtures) =>
  fc.oneof(
    fc.constantFrom(...f.emails, f.foreignEmail),
    fc.constantFrom(...f.emails).map((e) => `  ${e.toUpperCase()} `),
    fc.emailAddress(),
    fc.constantFrom('a@b', '@example.com', 'a@@example.com', `${'a'.repeat(250)}@example.com`),
    oddString,
  );
const name = fc.oneof(fc.string({ minLength: 1, maxLength: 130 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), oddString);
const password = fc.oneof(fc.constant(strongPassword), fc.string({ maxLength: 140 }), fc.constantFrom('abc', 'x'.repeat(129), 'Aa1!aaaa'));
const code = fc.oneof(fc.stringMatching(/^\d{6}$/), fc.constantFrom(' 123456 ', '12345', '1234567', '١٢٣٤٥٦'), oddString);
const phone = (f: Fixtures) =>
  fc.oneof(
    fc.constant(f.contactPhone),
    fc.stringMatching(/^\+?55 ?\(?1[1-9]\)? ?9\d{4}-?\d{4}$/),
    fc.stringMatching(/^\+?\d{1,20}$/),
    fc.constantFrom('+1 202 555 0143', '5511', '0', 'abc', '++55', '(11) 91234-5678'),
    oddString,
  );
const mimetype = fc.oneof(
  fc.constantFrom('image/png', 'image/jpeg', 'video/mp4', 'audio/ogg', 'audio/ogg; codecs=opus', 'application/pdf', ' IMAGE/PNG '),
  fc.constantFrom('text/html', 'image/svg+xml', 'application/javascript', `audio/ogg;${'x'.repeat(200)}`, 'image/png\r\nx-evil: 1'),
  oddString,
);
const length = fc.oneof(
  fc.integer({ min: 1, max: 60 * MB }),
  fc.constantFrom(0, -1, 1, 5 * MB, 5 * MB + 1, 50 * MB + 1, 2 ** 53, 1.5),
  fc.double({ noNaN: true }),
);

type BodyArbitrary = (f: Fixtures) => fc.Arbitrary<unknown>;

/** The `where` of a generated list query (the query itself when it is not JSON: odd input either way). */
function whereOf(query: string): unknown {
  try {
    return (JSON.parse(query) as { where?: unknown } | null)?.where ?? {};
  } catch {
    return query;
  }
}

/** A generator for every body and query schema a handler declares. A schema missing here fails the tests. */
export const schemaArbitraries = new Map<z.ZodType, BodyArbitrary>([
  [registerPayload, (f) => shaped({ name, email: email(f), password })],
  [loginPayload, (f) => shaped({ email: email(f), password, accountId: idOf(f, [f.accountId]) })],
  [forgotPasswordPayload, (f) => shaped({ email: email(f) })],
  [resetPasswordPayload, (f) => shaped({ email: email(f), verifyCode: code, password, accountId: idOf(f, [f.accountId]) })],
  [verifyEmailPayload, (f) => shaped({ userId: idOf(f, f.userIds), verifyCode: code })],
  [resendVerificationPayload, (f) => shaped({ userId: idOf(f, f.userIds) })],
  [switchAccountPayload, (f) => shaped({ accountId: idOf(f, [f.accountId]) })],
  [accountPayload, () => shaped({ name })],
  [userCreatePayload, (f) => shaped({ name, email: email(f), password, isAdmin: fc.boolean(), id: idOf(f, f.userIds) })],
  [
    userUpdatePayload,
    (f) =>
      shaped({
        name,
        email: email(f),
        password: fc.oneof(fc.constant(''), password),
        isAdmin: fc.boolean(),
        skipSignature: fc.boolean(),
        id: idOf(f, f.userIds),
      }),
  ],
  [userArchivePayload, (f) => shaped({ archive: fc.boolean(), id: idOf(f, f.userIds) })],
  [
    serviceCreatePayload,
    () =>
      shaped({
        name,
        type: fc.constantFrom('whatsapp', 'telegram', 'WHATSAPP', 'email'),
        token: fc.oneof(fc.stringMatching(/^\d{6,10}:[\w-]{10,35}$/), oddString),
      }),
  ],
  [
    serviceUpdatePayload,
    () => shaped({ name, type: fc.constantFrom('whatsapp', 'telegram', 'sms'), token: fc.oneof(fc.stringMatching(/^\d{6,10}:[\w-]{10,35}$/), oddString) }),
  ],
  [servicePairingPayload, (f) => shaped({ phoneNumber: phone(f) })],
  [
    embeddedSignupPayload,
    () =>
      shaped({
        name,
        code: fc.oneof(fc.stringMatching(/^AQ[\w-]{20,60}$/), oddString),
        wabaId: fc.oneof(fc.stringMatching(/^\d{15}$/), oddString),
        phoneNumberId: fc.oneof(fc.stringMatching(/^\d{15}$/), oddString),
        coexistence: fc.boolean(),
        defaultDepartmentId: fc.oneof(fc.constant(null), oddString),
        readReceipts: fc.boolean(),
      }),
  ],
  [
    contactPayload,
    (f) =>
      shaped({
        name,
        serviceId: idOf(f, [f.serviceId, f.telegramServiceId]),
        gender: fc.constantFrom('male', 'female', null, 'other'),
        idFromService: fc.oneof(fc.stringMatching(/^\d{1,12}$/), oddString, fc.constant(null)),
        data: shaped({
          email: fc.oneof(email(f), fc.constant(null)),
          phoneNumber: fc.oneof(phone(f), fc.constant(null)),
          phoneCountry: fc.oneof(fc.constantFrom('BR', 'br', 'US', 'PT', 'XX', 'BRA', ''), fc.constant(null)),
        }),
      }),
  ],
  [contactArchivePayload, () => shaped({ archive: fc.boolean() })],
  [
    sendMessagePayload,
    (f) =>
      shaped({
        contactId: idOf(f, [f.contactId]),
        serviceId: idOf(f, [f.serviceId, f.telegramServiceId]),
        text: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('', '   ', 'x'.repeat(4096), 'x'.repeat(4097))),
        type: fc.constantFrom('text', 'image', 'document', 'voice', 'sticker'),
        fileId: fc.oneof(fc.constant(null), idOf(f, [f.messageId])),
        replyMessageId: fc.oneof(fc.constant(null), idOf(f, [f.messageId])),
        template: fc.oneof(
          fc.constant(null),
          shaped({
            name: fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,20}$/), fc.constantFrom('Boas Vindas', 'x'.repeat(513)), oddString),
            language: fc.constantFrom('pt_BR', 'en_US', 'pt-br', ''),
            parameters: fc.oneof(
              fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('{{nome}}', '{{email}}', '', 'x'.repeat(1025))), { maxLength: 4 }),
              hostile,
            ),
          }),
        ),
      }),
  ],
  [
    templatePayload,
    () => {
      const button = fc.oneof(
        shaped({ type: fc.constant('QUICK_REPLY'), text: fc.oneof(fc.string({ maxLength: 30 }), oddString) }),
        shaped({
          type: fc.constant('URL'),
          text: fc.string({ maxLength: 30 }),
          url: fc.constantFrom('https://loja.example.com/p', 'http://x.com', 'javascript:alert(1)'),
        }),
        shaped({
          type: fc.constantFrom('PHONE_NUMBER', 'OTP'),
          text: fc.string({ maxLength: 30 }),
          phoneNumber: fc.constantFrom('+5511987654321', '11 98765-4321'),
        }),
      );
      return shaped({
        name: fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,30}$/), fc.constantFrom('Pedido Enviado', 'promoção', 'x'.repeat(513)), oddString),
        category: fc.constantFrom('MARKETING', 'UTILITY', 'AUTHENTICATION', 'marketing', 'PROMO'),
        language: fc.constantFrom('pt_BR', 'en_US', 'pt-br', ''),
        header: fc.oneof(fc.constant(null), fc.string({ maxLength: 70 }), fc.constant('Oi {{1}}')),
        body: fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.constantFrom('Olá {{1}}, pedido {{2}} saiu.', '{{1}} abre', 'a {{1}} b {{3}} c', '', 'x'.repeat(1025)),
        ),
        examples: fc.oneof(fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), hostile),
        footer: fc.oneof(fc.constant(null), fc.string({ maxLength: 70 })),
        buttons: fc.oneof(fc.array(button, { maxLength: 12 }), hostile),
      });
    },
  ],
  [retryMessagePayload, (f) => shaped({ contactId: idOf(f, [f.contactId]) })],
  [
    forwardMessagePayload,
    (f) =>
      shaped({
        contactId: idOf(f, [f.contactId]),
        toContactIds: fc.oneof(fc.array(idOf(f, [f.contactId]), { maxLength: 12 }), fc.constant([]), hostile),
      }),
  ],
  [
    reactMessagePayload,
    (f) => shaped({ contactId: idOf(f, [f.contactId]), emoji: fc.oneof(fc.constantFrom('👍', '', '❤️', '🇧🇷'), fc.string({ maxLength: 40 })) }),
  ],
  [
    uploadRequestPayload,
    (f) =>
      shaped({
        name: fc.oneof(name, fc.constantFrom('a.pdf', '../../etc/passwd', 'index.html', 'x'.repeat(201))),
        mimetype,
        serviceId: idOf(f, [f.serviceId]),
        length,
        isPtt: fc.boolean(),
        base64: fc.oneof(fc.base64String({ maxLength: 40 }), oddString),
      }),
  ],
  [
    contactImportRequest,
    () => shaped({ name: fc.oneof(name, fc.constantFrom('contatos.csv', 'LISTA.CSV', 'planilha.xlsx', `${'x'.repeat(200)}.csv`)), length }),
  ],
  [
    contactImportSettings,
    (f) =>
      shaped({
        serviceId: idOf(f, [f.serviceId, f.telegramServiceId]),
        mapping: fc.oneof(fc.array(fc.constantFrom('name', 'phone', 'email', 'ignore', 'nome'), { maxLength: 6 }), hostile),
        tagIds: fc.oneof(fc.array(oddString, { maxLength: 3 }), hostile),
        departmentId: fc.oneof(fc.constant(null), oddString),
        country: fc.constantFrom('BR', 'br', 'PT', 'XX', 'BRA', ''),
        dryRun: fc.boolean(),
      }),
  ],
  // A segment's `where` is a contacts list `where` (ADR-0226): the list query generator's, or anything.
  [
    segmentPayload,
    () =>
      shaped({
        name,
        where: fc.oneof({ weight: 4, arbitrary: listQueryArbitrary(contactListRules).map(whereOf) }, hostile),
      }),
  ],
  // Outbound webhooks (ADR-0233): addresses of every shape, the valid ones on
  // private addresses (the sender refuses them at delivery without touching the network), event
  // types known and unknown.
  // 'Tokens de API' (ADR-0232): known and unknown scopes, repeated, none; the expiry choices and others.
  [
    apiTokenPayload,
    () =>
      shaped({
        name,
        scopes: fc.oneof(fc.subarray([...apiTokenScopes, 'admin', 'contacts:*', 'CONTACTS:READ']), fc.array(fc.constantFrom(...apiTokenScopes)), hostile),
        expiresInDays: fc.oneof(fc.constantFrom(30, 90, 365, null, 0, -1, 7, 366, 30.5, '30'), hostile),
      }),
  ],
  [
    webhookSubscriptionPayload,
    () =>
      shaped({
        url: fc.oneof(
          fc.tuple(fc.nat(255), fc.nat(255), fc.webPath()).map(([a, b, path]) => `https://10.${a}.${b}.1${path}`),
          fc.constantFrom('https://10.0.0.1/x', 'http://[::1]/', 'ftp://example.com/', 'https://user:pw@example.com/', 'example.com', ''),
          oddString,
        ),
        description: fc.oneof(name, fc.string({ maxLength: 300 })),
        eventTypes: fc.oneof(fc.subarray([...webhookEventTypes, 'message.deleted', 'ping']), hostile),
        enabled: fc.oneof(fc.boolean(), hostile),
      }),
  ],
  // Scheduled messages (ADR-0224): dates that do not exist, times past and odd, repeats unknown.
  [
    scheduleMessagePayload,
    (f) =>
      shaped({
        contactId: idOf(f, [f.contactId]),
        text: fc.oneof(name, fc.constantFrom('', 'Seu boleto vence amanhã'), fc.string({ maxLength: 5000 })),
        fileId: fc.oneof(fc.constant(null), oddString),
        date: fc.oneof(fc.constantFrom('2099-01-10', '2099-02-30', '2000-01-01', '10/01/2099', ''), oddString),
        time: fc.oneof(fc.constantFrom('09:00', '23:59', '24:00', '9:00', ''), oddString),
        repeat: fc.oneof(fc.constantFrom('once', 'daily', 'weekly', 'monthly', 'yearly'), oddString),
      }),
  ],
  [cancelScheduledMessagePayload, (f) => shaped({ contactId: idOf(f, [f.contactId]) })],
  // Reports: dates that do not exist, in the wrong order, periods past the limits.
  [reportRebuildSchema, () => shaped({ from: reportDate, to: reportDate })],
  // Campaigns (ADR-0227): the team's contacts and connections, another account's, odd texts, times and paces.
  [
    campaignPayload,
    (f) => {
      const seconds = fc.oneof(fc.integer({ min: -5, max: 4000 }), fc.double(), oddString);
      const time = fc.oneof(fc.constantFrom('00:00', '09:00', '18:00', '24:00', '25:00', '9:00', ''), oddString);
      return shaped({
        name,
        audience: fc.oneof(
          shaped({ kind: fc.constant('contacts'), contactIds: fc.oneof(fc.array(idOf(f, [f.contactId]), { maxLength: 5 }), hostile) }),
          shaped({ kind: fc.constant('segment'), segmentId: idOf(f, [f.contactId]) }),
          hostile,
        ),
        serviceIds: fc.oneof(fc.array(idOf(f, [f.serviceId, f.telegramServiceId]), { maxLength: 3 }), hostile),
        message: fc.oneof(
          shaped({
            text: fc.oneof(name, fc.constantFrom('Oi {{primeiro_nome}}', 'Oi {{desconhecida}}', ''), fc.string({ maxLength: 5000 })),
            fileId: fc.oneof(fc.constant(null), oddString),
          }),
          hostile,
        ),
        startAt: fc.oneof(fc.constant(null), fc.constantFrom('2099-01-01T12:00:00.000Z', '2000-01-01T00:00:00Z', '2099-13-40T99:00:00Z'), oddString),
        window: fc.oneof(
          shaped({ kind: fc.constant('business-hours') }),
          shaped({
            kind: fc.constant('hours'),
            start: time,
            end: time,
            weekdays: fc.oneof(fc.array(fc.integer({ min: -1, max: 8 }), { maxLength: 9 }), hostile),
          }),
          hostile,
        ),
        pace: fc.oneof(shaped({ minGapSeconds: seconds, maxGapSeconds: seconds, dailyLimit: seconds, dailyNewChats: seconds }), hostile),
        optOutHint: fc.oneof(fc.boolean(), hostile),
      });
    },
  ],
  [campaignMovePayload, () => shaped({ action: fc.oneof(fc.constantFrom('pause', 'resume', 'cancel', 'PAUSE', ''), oddString) })],
  [checkoutPayload, () => shaped({ priceId: fc.oneof(fc.stringMatching(/^price_\w{4,20}$/), oddString) })],
  // The team inbox (docs/product.md#team-inbox). Department, tag and quick-reply ids are made at run time; the team's
  // users and contacts, another account's ids and odd strings stand in for them.
  [departmentPayload, (f) => shaped({ name, userIds: fc.oneof(fc.array(idOf(f, f.userIds), { maxLength: 5 }), fc.constant([]), hostile) })],
  [departmentArchivePayload, () => shaped({ archive: fc.boolean() })],
  [
    tagPayload,
    () => shaped({ name, color: fc.oneof(fc.stringMatching(/^#[0-9a-fA-F]{6}$/), fc.constantFrom('#fff', 'red', '#GGGGGG', ' #A1B2C3 '), oddString) }),
  ],
  [contactTagsPayload, (f) => shaped({ tagIds: fc.oneof(fc.array(idOf(f, [f.contactId]), { maxLength: 25 }), hostile) })],
  [conversationStatusPayload, () => shaped({ status: fc.constantFrom('open', 'pending', 'resolved', 'closed', 'OPEN', '') })],
  [
    transferPayload,
    (f) =>
      shaped({
        userId: fc.oneof(idOf(f, f.userIds), fc.constant(null)),
        departmentId: fc.oneof(fc.constantFrom(...f.foreignIds), oddString, fc.constant(null)),
        note: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('', '   ', 'x'.repeat(1001)), fc.constant(null)),
      }),
  ],
  [
    notePayload,
    (f) => shaped({ contactId: idOf(f, [f.contactId]), text: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('', '   ', 'x'.repeat(4097))) }),
  ],
  [inboxSettingsPayload, () => shaped({ membersSeeAll: fc.boolean() })],
  [
    businessHoursSchema,
    (f) => {
      const time = fc.oneof(fc.stringMatching(/^([01]\d|2[0-3]):[0-5]\d$/), fc.constantFrom('24:00', '24:01', '7:00', '08h00', '25:00', ''), oddString);
      const shift = shaped({ weekday: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(-1, 7, 1.5)), start: time, end: time });
      return shaped({
        timeZone: fc.oneof(fc.constantFrom('America/Sao_Paulo', 'America/Manaus', 'Europe/Lisbon', 'Mars/Olympus', 'UTC+3', ''), oddString),
        shifts: fc.array(shift, { maxLength: 8 }),
        holidays: fc.array(shaped({ date: fc.oneof(fc.constantFrom('2026-12-25', '2027-02-30', '25/12/2026', '2026-1-1'), oddString), name }), {
          maxLength: 4,
        }),
        departments: fc.array(shaped({ departmentId: idOf(f, f.foreignIds), shifts: fc.array(shift, { maxLength: 3 }) }), { maxLength: 2 }),
      });
    },
  ],
  [
    automationSettingsSchema,
    (f) => {
      const text = fc.oneof(
        fc.constantFrom('Olá, {{primeiro_nome}}!', 'Protocolo {{ protocolo }}', '{{desconhecida}}', '', ' ', 'x'.repeat(1025)),
        fc.string({ maxLength: 200 }),
        oddString,
      );
      const count = fc.oneof(fc.integer({ min: -5, max: 20_000 }), fc.constantFrom(0, 1.5, Number.NaN), hostile);
      const rule = (fields: Record<string, fc.Arbitrary<unknown>>) => shaped({ enabled: fc.oneof(fc.boolean(), hostile), ...fields });
      return shaped({
        greeting: rule({ text }),
        outOfHours: rule({ text }),
        noAnswer: rule({ minutes: count, text }),
        closing: rule({ text }),
        waitingTooLong: rule({ minutes: count, departmentId: idOf(f, f.foreignIds) }),
        inactivity: rule({ closeAfterHours: count, warnBeforeMinutes: count, warningText: text }),
        rating: rule({ question: text, thanks: text }),
        roundRobin: rule({ maxOpenPerAgent: count }),
        reopenToLastAgent: fc.boolean(),
        signMessages: fc.oneof(fc.boolean(), hostile),
        // Opting out of campaigns (ADR-0225): words folded alike, with spaces, repeated, too many.
        optOut: shaped({
          words: fc.oneof(fc.array(fc.oneof(fc.constantFrom('SAIR', 'sair', 'Sáir', 'não quero', ''), oddString), { maxLength: 12 }), hostile),
          optInWords: fc.oneof(fc.array(fc.constantFrom('VOLTAR', 'SAIR', 'voltar'), { maxLength: 3 }), hostile),
          confirmation: shaped({ enabled: fc.oneof(fc.boolean(), hostile), optOutText: text, optInText: text }),
        }),
      });
    },
  ],
  [
    connectionMenuSchema,
    (f) => {
      const menuId = fc.oneof(fc.constantFrom('inicio', 'financeiro', 'suporte'), oddString);
      const action = fc.oneof(
        shaped({ kind: fc.constant('department'), departmentId: idOf(f, f.foreignIds) }),
        shaped({ kind: fc.constant('submenu'), menuId }),
        shaped({ kind: fc.constant('answer'), text: fc.oneof(fc.constantFrom('Pix: 123', '{{nada}}', ''), oddString) }),
        shaped({ kind: fc.constant('user'), userId: idOf(f, f.userIds) }),
        shaped({ kind: fc.oneof(fc.constantFrom('team', 'Department'), oddString) }),
      );
      const option = shaped({ key: fc.oneof(fc.constantFrom('1', '2', '9', '0', '10', ' 3 ', 'a'), oddString), label: name, action });
      const node = shaped({ id: menuId, text: fc.oneof(fc.constantFrom('Escolha uma opção:', ''), oddString), options: fc.array(option, { maxLength: 10 }) });
      return shaped({
        enabled: fc.boolean(),
        menus: fc.array(node, { maxLength: 4 }),
        invalidText: fc.oneof(fc.constant('Opção inválida.'), oddString),
        maxInvalid: fc.oneof(fc.integer({ min: -1, max: 12 }), hostile),
        timeoutMinutes: fc.oneof(fc.integer({ min: -1, max: 2000 }), hostile),
        timeoutDepartmentId: fc.oneof(fc.constant(null), idOf(f, f.foreignIds)),
      });
    },
  ],
  [
    quickReplyPayload,
    () =>
      shaped({
        shortcut: fc.oneof(fc.stringMatching(/^\/?[a-z0-9_-]{1,30}$/), fc.constantFrom('/', 'Com Espaço', 'x'.repeat(31), 'ÁCENTO'), oddString),
        text: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('Olá {{nome}}!', '{{desconhecida}}', '', 'x'.repeat(4097))),
      }),
  ],
  [quickReplyRenderPayload, (f) => shaped({ contactId: idOf(f, [f.contactId]) })],
  [
    batchPayload,
    (f) => {
      const read = shaped({
        path: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom('/tags', '/departments', '/services', '/inbox/counts', '/auth/me', '/contacts') },
          idOf(f, [f.contactId]).map((id) => `/contacts/${String(id)}`),
          idOf(f, [f.accountId]).map((id) => `/accounts/${String(id)}`),
          fc.constantFrom('/payments/products', '/batch', '/messages/send', '/../tags', '/contacts/%E0%A4%A', '', 'tags', '/tags?x=1'),
          oddString,
        ),
        query: fc.oneof(
          fc.dictionary(fc.constantFrom('query', 'after', '__proto__'), fc.oneof(fc.constant('{"perPage":5}'), oddString), { maxKeys: 2 }),
          oddString,
        ),
        method: fc.constantFrom('GET', 'POST', 'get'),
      });
      return shaped({ requests: fc.oneof(fc.array(read, { maxLength: 10 }), oddString) });
    },
  ],
]);

/** A report's date: valid ones near each other and far apart, impossible ones, other formats. */
const reportDate = fc.oneof(
  fc.constantFrom('2026-11-01', '2026-11-27', '2025-11-27', '2024-02-29', '2026-02-29', '2026-13-01', '27/11/2026', ''),
  fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  oddString,
);

/** URL query parameters (strings only) for a schema of `api({ query })`. */
export const queryArbitraries = new Map<z.ZodType, BodyArbitrary>([
  [reportQuerySchema, () => fc.record({ from: reportDate, to: reportDate, compare: fc.oneof(fc.constant('previous'), oddString) }, { requiredKeys: [] })],
  // A campaign's recipients: outcomes known and not, cursors of this list (base64url of a recipient's key) and forged ones.
  [
    campaignRecipientsQuery,
    () =>
      fc.record(
        {
          outcome: fc.oneof(fc.constantFrom('skipped', 'failed', 'sent', 'SKIPPED', ''), oddString),
          after: fc.oneof(
            fc.constantFrom('UiMxIzAjMQ', 'TUVTU0FHRSMx', 'not base64!', '', 'x'.repeat(600)),
            fc.string({ maxLength: 40 }).map((sk) => Buffer.from(`R#${sk}`, 'utf8').toString('base64url')),
            oddString,
          ),
        },
        { requiredKeys: [] },
      ),
  ],
  [
    checkoutSessionQuery,
    () => fc.record({ sessionId: fc.oneof(fc.stringMatching(/^cs_test_\w{4,20}$/), oddString), session_id: oddString, other: oddString }, { requiredKeys: [] }),
  ],
  [
    cloudWebhookHandshakeQuery,
    () =>
      fc.record(
        {
          'hub.mode': fc.oneof(fc.constant('subscribe'), oddString),
          'hub.verify_token': fc.oneof(fc.stringMatching(/^[\w-]{10,60}$/), oddString),
          'hub.challenge': fc.oneof(fc.stringMatching(/^\d{1,12}$/), oddString, fc.constant('x'.repeat(600))),
        },
        { requiredKeys: [] },
      ),
  ],
]);

/** A path segment: the team's own ids, another account's, or odd strings (valid UTF-16 only: it is URL-encoded). */
export const pathSegment = (f: Fixtures, own: string[]) =>
  fc.oneof(
    ...(own.length ? [{ weight: 4, arbitrary: fc.constantFrom(...own) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...f.foreignIds) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 70 }) },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%', '%2F', 'a/b', '\\', 'x'.repeat(65), '__proto__') },
  );

const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(501)),
);
/** LIKE patterns, biased to wildcards, escapes and regular-expression characters. */
const likePattern = fc.oneof(
  fc.stringMatching(/^[%_\\a-zãé.*+?()[\]{}|^$]{0,30}$/),
  fc.integer({ min: 1, max: 60 }).map((n) => `${'%a'.repeat(n)}%b`),
  fc.constantFrom('%', '_', '\\', '%\\', 'ÁÉ%', 'x'.repeat(201)),
  fc.string({ maxLength: 20 }),
);

/**
 * The list query language (`?query=` of a list route): `where` over the route's fields and others,
 * with every operator, nested `or`, `order`, paging and `include`; sometimes not an object, or
 * not JSON at all. Answers the raw parameter.
 */
export function listQueryArbitrary(rules: ListRules): fc.Arbitrary<string> {
  /** Usually a valid value, sometimes not. */
  const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: invalid });
  const field = mostly(
    fc.constantFrom(...rules.fields),
    fc.oneof(fc.constantFrom('__proto__', 'constructor', 'pk', 'accountId', 'data.__proto__', 'a'.repeat(61), '1a', 'a..b'), fc.string({ maxLength: 12 })),
  ) as fc.Arbitrary<string>;
  const operator = mostly(
    fc.record(
      { eq: scalar, ne: scalar, like: likePattern, in: fc.array(scalar, { maxLength: 5 }), gt: scalar, gte: scalar, lt: scalar, lte: scalar },
      { requiredKeys: [] },
    ),
    fc.record({ regex: scalar, like: scalar, in: hostile }, { requiredKeys: [] }),
  );
  const { where } = fc.letrec<{ where: Record<string, unknown> }>((tie) => ({
    where: fc
      .tuple(
        fc.array(fc.tuple(field, mostly(fc.oneof(scalar, operator), fc.array(scalar, { maxLength: 2 }))), { maxLength: 3 }),
        fc.option(fc.array(tie('where'), { maxLength: 3 }), { freq: 4, nil: undefined }),
      )
      .map(([pairs, or]) => {
        const out: Record<string, unknown> = {};
        for (const [key, value] of pairs) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        if (or) out.or = or;
        return out;
      }),
  }));
  const query = fc.record(
    {
      where: mostly(where, hostile),
      include: mostly(
        fc.array(fc.constantFrom(...(rules.includes ?? []), 'user'), { maxLength: 2 }),
        fc.oneof(fc.constantFrom(['__proto__'], ['account']), hostile),
      ),
      order: mostly(
        fc.array(fc.tuple(field, fc.constantFrom('ASC', 'DESC', 'asc', 'desc')), { maxLength: 3 }),
        fc.oneof(
          fc.array(fc.array(hostile, { maxLength: 3 }), { maxLength: 2 }),
          fc.tuple(field, fc.constant('up')).map((o) => [o]),
          hostile,
        ),
      ),
      page: mostly(fc.integer({ min: 0, max: 5 }), fc.constantFrom(-1, 100001, 1.5, '1', null)),
      perPage: mostly(fc.integer({ min: 1, max: 500 }), fc.constantFrom(0, -1, 501, 1e9, '10', null)),
      withCount: mostly(fc.boolean(), hostile),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 12, arbitrary: query.map((q) => JSON.stringify(q)) },
    { weight: 1, arbitrary: fc.record({ cursor: hostile, where: fc.constant({}) }).map((q) => JSON.stringify(q)) },
    { weight: 1, arbitrary: hostile.map((v) => JSON.stringify(v) ?? '') },
    { weight: 1, arbitrary: fc.constantFrom('{', 'null', '[]', '', '{"where":', '%7B') },
  );
}
