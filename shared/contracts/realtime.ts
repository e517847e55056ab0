/**
 * The realtime contract (docs/realtime.md): every message the server sends on the socket is one
 * `{ event, data }`, a union discriminated by `event`. The server builds these types
 * (`shared/domain/realtime/events.ts`, type-level only); the browser parses each message with
 * `realtimeEvent` and narrows on `event`, ignoring anything that does not match.
 *
 * The entity schemas describe the items as the API answers them; the interfaces in `entities.ts`,
 * `contacts.ts`, `messages.ts` and `services.ts` stay the readable reference, and the checks at the
 * end of this file keep both the same shape. A nullable field may also be missing on the wire (a
 * stored item written before the field existed) and reads as null.
 */
import { z } from 'zod';
import type { Contact } from './contacts.ts';
import { conversationStatuses } from './conversations.ts';
import { genders } from './genders.ts';
import type { Account, User } from './entities.ts';
import { messageKinds, messageTypes, type Message } from './messages.ts';
import { templateCategories, templateHeaderFormats, templateStatuses, type MessageTemplate } from './templates.ts';
import { cloudQualityRatings, serviceStatuses, serviceTypes, type Service } from './services.ts';
import { scheduleRepeats, type ScheduledMessage } from './scheduled-messages.ts';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);
const ref = z.object({ id: z.string(), name: z.string() });
const timestamps = { createdAt: z.string(), updatedAt: z.string() };

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  ...timestamps,
  plan: z.object({ productName: z.string(), users: z.number(), connections: z.number(), contacts: z.number() }),
  subscription: nullable(
    z.object({
      status: z.string(),
      current_period_start: z.number(),
      current_period_end: z.number(),
      cancel_at_period_end: z.boolean(),
      plan: z.object({ amount: z.number(), interval: z.enum(['month', 'year']) }),
    }),
  ),
});

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  accountId: nullable(z.string()),
  account: nullable(ref),
  avatar: nullable(z.object({ url: z.string() })),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  emailVerified: z.boolean(),
  pendingEmail: nullable(z.string()),
  archivedAt: nullable(z.string()),
  archivedReason: nullable(z.enum(['limit', 'manual'])),
  // Missing on users answered before signed messages.
  skipSignature: z.boolean().default(false),
  ...timestamps,
});

export const serviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(serviceTypes),
  // Anything else shows as disconnected (services.ts).
  status: z.enum(serviceStatuses).catch('disconnected'),
  connected: z.boolean(),
  data: z.object({ qrCode: nullable(z.string()), pairingCode: nullable(z.string()) }),
  internalData: z.object({
    token: z.string().optional(),
    appSecret: z.string().optional(),
    phoneNumberId: z.string().optional(),
    wabaId: z.string().optional(),
  }),
  displayPhoneNumber: z.string().optional(),
  verifiedName: z.string().optional(),
  qualityRating: z.enum(cloudQualityRatings).optional(),
  statusReason: nullable(z.string()),
  defaultDepartmentId: nullable(z.string()),
  readReceipts: z.boolean().catch(true),
  ...timestamps,
});

export const messageSummarySchema = z.object({
  id: z.string(),
  text: z.string(),
  type: z.enum(messageTypes),
  isFromMe: z.boolean(),
  ack: z.number(),
  timestamp: z.string(),
  file: nullable(z.object({ name: z.string(), mimetype: z.string() })),
});

export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['user', 'group']),
  data: z.object({ email: nullable(z.string()), phoneNumber: nullable(z.string()), phoneCountry: nullable(z.string()) }),
  idFromService: z.string(),
  gender: nullable(z.enum(genders)),
  serviceId: z.string(),
  service: nullable(z.object({ id: z.string(), name: z.string(), type: z.enum(serviceTypes) })),
  avatar: nullable(z.object({ url: z.string() })),
  avatarUrl: nullable(z.string()),
  isOnline: z.boolean(),
  lastSeenAt: nullable(z.string()),
  archivedAt: nullable(z.string()),
  archivedReason: nullable(z.enum(['limit', 'manual'])),
  lastMessage: nullable(messageSummarySchema),
  lastMessageAt: nullable(z.string()),
  lastInboundAt: nullable(z.string()),
  optedOutAt: nullable(z.string()),
  optedOutWord: nullable(z.string()),
  unread: z.number(),
  status: z.enum(conversationStatuses).default('open'),
  userId: nullable(z.string()),
  departmentId: nullable(z.string()),
  tags: z.array(z.string()),
  user: nullable(ref),
  department: nullable(ref),
  ...timestamps,
});

export const messageSchema = z.object({
  id: z.string(),
  contactId: z.string(),
  serviceId: z.string(),
  text: z.string(),
  type: z.enum(messageTypes),
  // Missing on items written before notes and system lines existed.
  kind: z.enum(messageKinds).default('message'),
  timestamp: z.string(),
  isFromMe: z.boolean(),
  ack: z.number(),
  error: nullable(z.string()),
  // Missing on items written before the daily send caps.
  waiting: z.string().nullable().default(null),
  file: nullable(
    z.object({
      id: z.string(),
      url: z.string(),
      mimetype: z.string(),
      name: z.string(),
      filename: z.string(),
      type: z.enum(messageTypes),
      size: z.number(),
      captionsUrl: nullable(z.null()),
    }),
  ),
  fileId: nullable(z.string()),
  thumbnail: nullable(z.object({ url: z.string() })),
  quotedMessage: nullable(messageSummarySchema),
  replyMessageId: nullable(z.string()),
  user: nullable(ref),
  groupContact: nullable(ref),
  // Missing on items written before reactions were shown.
  reactions: z.array(z.object({ emoji: z.string(), count: z.number(), fromMe: z.boolean() })).default([]),
  // Only on an automation's messages (docs/conversation-lifecycle.md#automated-messages).
  automated: z.literal(true).optional(),
  // Only on messages sent under their author's name, and on forwarded ones.
  signed: z.literal(true).optional(),
  forwarded: z.literal(true).optional(),
  ...timestamps,
});

export const templateSchema = z.object({
  id: z.string(),
  serviceId: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.enum(templateCategories),
  status: z.enum(templateStatuses),
  rejectionReason: nullable(z.string()),
  headerFormat: nullable(z.enum(templateHeaderFormats)),
  header: nullable(z.string()),
  body: z.string(),
  examples: z.array(z.string()).default([]),
  footer: nullable(z.string()),
  buttons: z
    .array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('QUICK_REPLY'), text: z.string() }),
        z.object({ type: z.literal('URL'), text: z.string(), url: z.string() }),
        z.object({ type: z.literal('PHONE_NUMBER'), text: z.string(), phoneNumber: z.string() }),
        z.object({ type: z.literal('COPY_CODE'), text: z.string() }),
        z.object({ type: z.literal('UNSUPPORTED'), text: z.string(), kind: z.string() }),
      ]),
    )
    .default([]),
  variableCount: z.number(),
  ...timestamps,
});

/** The two events of one kind of item: `<kind>.CREATED` and `<kind>.UPDATED`, with the item. */
function eventsOf<const Kind extends string, Data extends z.ZodType>(kind: Kind, data: Data) {
  return z.object({ event: z.enum([`${kind}.CREATED`, `${kind}.UPDATED`]), data });
}

const scheduledMessageSchema = z.object({
  id: z.string(),
  contactId: z.string(),
  serviceId: z.string(),
  text: z.string(),
  file: nullable(z.object({ id: z.string(), name: z.string(), mimetype: z.string() })),
  repeat: z.enum(scheduleRepeats),
  date: z.string(),
  time: z.string(),
  timeZone: z.string(),
  status: z.enum(['scheduled', 'sent', 'cancelled']),
  nextAt: nullable(z.string()),
  nextAtText: nullable(z.string()),
  sentCount: z.number(),
  user: ref,
  ...timestamps,
});

export const realtimeEvent = z.discriminatedUnion('event', [
  eventsOf('account', accountSchema),
  eventsOf('user', userSchema),
  eventsOf('service', serviceSchema),
  eventsOf('contact', contactSchema),
  eventsOf('message', messageSchema),
  eventsOf('template', templateSchema),
  eventsOf('scheduledMessage', scheduledMessageSchema),
]);

/** One event as sent on the socket. */
export type RealtimeEvent = z.infer<typeof realtimeEvent>;

// The schemas and the entity interfaces must describe the same shape: a field added to one and not
// the other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** @public a compile-time check, used by nothing at run time */
export type SchemasMatchEntities = [
  Assert<Same<z.infer<typeof accountSchema>, Account>>,
  Assert<Same<z.infer<typeof userSchema>, User>>,
  Assert<Same<z.infer<typeof serviceSchema>, Service>>,
  Assert<Same<z.infer<typeof contactSchema>, Contact>>,
  Assert<Same<z.infer<typeof messageSchema>, Message>>,
  Assert<Same<z.infer<typeof templateSchema>, MessageTemplate>>,
  Assert<Same<z.infer<typeof scheduledMessageSchema>, ScheduledMessage>>,
];
