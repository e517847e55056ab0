/**
 * The body of Meta's webhook deliveries for the WhatsApp Cloud API, as zod schemas:
 * `{ object: 'whatsapp_business_account', entry: [{ id, changes: [{ field, value }] }] }`.
 *
 * Lenient where Meta adds fields (objects are loose: unknown keys are kept, never refused), strict
 * where the product relies on a field (ids, phone numbers, timestamps, statuses). A change is read
 * on its own (`readChange`): a field we do not follow, or a value we cannot read, is answered as
 * such instead of refusing the whole delivery, so one odd change never loses the others. A message
 * of a type we do not know, or whose content we cannot read, becomes an `unsupported` message, never
 * an error.
 *
 * `openDelivery` is the only way in from raw bytes: it checks the signature first
 * (./signature.ts) and parses only a genuine body.
 */
import { z } from 'zod';
import { signatureHeader, verifySignature, type SignatureRefusal } from './signature.ts';

/** Epoch seconds as Meta sends them: a string of digits in `messages`/`statuses`, a number in `entry.time`. */
const epochSeconds = z.union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()]).transform(Number);

/** An id Meta sends as a number in some fields and a string in others. */
const idValue = z.union([z.string().min(1), z.number().int()]).transform(String);

export const cloudError = z.looseObject({
  code: z.number().int(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
  href: z.string().optional(),
});
export type CloudError = z.infer<typeof cloudError>;

const metadata = z.looseObject({ display_phone_number: z.string(), phone_number_id: z.string().min(1) });

const contact = z.looseObject({
  profile: z.looseObject({ name: z.string().optional() }).optional(),
  wa_id: z.string().min(1),
  /** A business-scoped user id, where Meta gives one. */
  user_id: z.string().optional(),
});

/** The part every message has; its content is under the key named by `type`. */
const messageBase = z.looseObject({
  from: z.string().min(1),
  id: z.string().min(1),
  timestamp: epochSeconds,
  type: z.string().min(1),
  /** Only on echoes (coexistence) and on history messages sent by the business. */
  to: z.string().optional(),
  context: z
    .looseObject({
      from: z.string().optional(),
      id: z.string().optional(),
      forwarded: z.boolean().optional(),
      frequently_forwarded: z.boolean().optional(),
    })
    .optional(),
  errors: z.array(cloudError).optional(),
});
export type RawCloudMessage = z.infer<typeof messageBase> & Record<string, unknown>;

// ─── Message contents, by type ────────────────────────────────────────────────────────────────

const media = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().min(1),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  /** Audio: a voice note recorded in the chat. */
  voice: z.boolean().optional(),
  /** Stickers. */
  animated: z.boolean().optional(),
  /** Present in newer deliveries; still fetched through `GET /{media-id}` with the token. */
  url: z.string().optional(),
});

const contactCard = z.looseObject({
  name: z.looseObject({ formatted_name: z.string().optional(), first_name: z.string().optional(), last_name: z.string().optional() }).optional(),
  phones: z.array(z.looseObject({ phone: z.string().optional(), wa_id: z.string().optional(), type: z.string().optional() })).optional(),
  org: z.looseObject({ company: z.string().optional() }).optional(),
});

const interactive = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('button_reply'), button_reply: z.looseObject({ id: z.string(), title: z.string() }) }),
  z.looseObject({ type: z.literal('list_reply'), list_reply: z.looseObject({ id: z.string(), title: z.string(), description: z.string().optional() }) }),
]);

/** The content schema of each message type we read; any other type is unsupported. */
export const messageContents = {
  text: z.looseObject({ body: z.string() }),
  image: media,
  video: media,
  audio: media,
  document: media,
  sticker: media,
  location: z.looseObject({
    latitude: z.number(),
    longitude: z.number(),
    name: z.string().optional(),
    address: z.string().optional(),
    url: z.string().optional(),
  }),
  contacts: z.array(contactCard),
  interactive,
  button: z.looseObject({ text: z.string(), payload: z.string().optional() }),
  reaction: z.looseObject({ message_id: z.string().min(1), emoji: z.string().optional() }),
  /**
   * A customer's edit of an earlier message (Meta's "Edit messages webhook reference": coexistence
   * numbers only, within 15 minutes, text or a media caption): the message as it now reads.
   */
  edit: z.looseObject({
    original_message_id: z.string().min(1),
    message: z.looseObject({
      type: z.string().optional(),
      text: z.looseObject({ body: z.string() }).optional(),
      image: z.looseObject({ caption: z.string().optional() }).optional(),
      video: z.looseObject({ caption: z.string().optional() }).optional(),
      document: z.looseObject({ caption: z.string().optional() }).optional(),
    }),
  }),
  /** A message deleted for everyone (Meta's "Revoke messages webhook reference": coexistence numbers only, within two days). */
  revoke: z.looseObject({ original_message_id: z.string().min(1) }),
  order: z.looseObject({
    catalog_id: z.string().optional(),
    text: z.string().optional(),
    product_items: z.array(
      z.looseObject({
        product_retailer_id: z.string(),
        quantity: z.number(),
        item_price: z.number().optional(),
        currency: z.string().optional(),
      }),
    ),
  }),
  system: z.looseObject({ body: z.string().optional(), wa_id: z.string().optional(), type: z.string().optional() }),
  unsupported: z.looseObject({ type: z.string().optional() }),
} as const;

type Contents = { [K in keyof typeof messageContents]: z.infer<(typeof messageContents)[K]> };

/** A message with its content read: one of the types above, or `unsupported` with why. */
export type CloudMessage =
  | { [K in Exclude<keyof Contents, 'unsupported'>]: { base: RawCloudMessage; type: K; content: Contents[K] } }[Exclude<keyof Contents, 'unsupported'>]
  | {
      base: RawCloudMessage;
      type: 'unsupported';
      /** The type Meta named (`unsupported.type` when it says, else `type` itself: `unknown`, or one we do not read). */
      originalType: string;
      errors: CloudError[];
    };

function hasContent(type: string): type is keyof typeof messageContents {
  return Object.hasOwn(messageContents, type);
}

/** Reads a message's content by its type; an unknown type or an unreadable content is `unsupported`. */
export function readMessage(raw: unknown): CloudMessage | null {
  const parsed = messageBase.safeParse(raw);
  if (!parsed.success) return null;
  const base = parsed.data as RawCloudMessage;
  const type = base.type;
  if (type !== 'unsupported' && hasContent(type)) {
    const content = messageContents[type].safeParse(base[type]);
    if (content.success) return { base, type, content: content.data } as CloudMessage;
  }
  const declared = type === 'unsupported' ? messageContents.unsupported.safeParse(base.unsupported) : null;
  const originalType = (declared?.success ? declared.data.type : undefined) ?? type;
  return { base, type: 'unsupported', originalType, errors: base.errors ?? [] };
}

// ─── Field values ─────────────────────────────────────────────────────────────────────────────

export const statusUpdate = z.looseObject({
  id: z.string().min(1),
  /** sent, delivered, read, played, failed; others are kept and ignored by the mapping. */
  status: z.string().min(1),
  timestamp: epochSeconds,
  recipient_id: z.string().optional(),
  recipient_type: z.string().optional(),
  biz_opaque_callback_data: z.string().optional(),
  conversation: z
    .looseObject({
      id: z.string().optional(),
      expiration_timestamp: epochSeconds.optional(),
      origin: z.looseObject({ type: z.string().optional() }).optional(),
    })
    .optional(),
  pricing: z
    .looseObject({ billable: z.boolean().optional(), pricing_model: z.string().optional(), type: z.string().optional(), category: z.string().optional() })
    .optional(),
  errors: z.array(cloudError).optional(),
});

/** `messages`: what customers sent, the statuses of what we sent, and errors not tied to a message. */
export const messagesValue = z.looseObject({
  messaging_product: z.literal('whatsapp').optional(),
  metadata,
  contacts: z.array(contact).optional(),
  /** Read one by one with `readMessage`, so one odd message does not refuse the others. */
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
  errors: z.array(cloudError).optional(),
});

/** `smb_message_echoes` (coexistence): messages the business sent from the WhatsApp Business app. */
export const echoesValue = z.looseObject({
  messaging_product: z.literal('whatsapp').optional(),
  metadata,
  message_echoes: z.array(z.unknown()),
});

/** `history` (coexistence onboarding): past chats of the Business app, in chunks, or an error when the business declined to share them. */
export const historyValue = z.looseObject({
  messaging_product: z.literal('whatsapp').optional(),
  metadata,
  history: z.array(
    z.looseObject({
      metadata: z.looseObject({ phase: z.number().optional(), chunk_order: z.number().optional(), progress: z.number().optional() }).optional(),
      threads: z.array(z.looseObject({ id: z.string().min(1), messages: z.array(z.unknown()) })).optional(),
      errors: z.array(cloudError).optional(),
    }),
  ),
});

export const templateStatusValue = z.looseObject({
  event: z.string().min(1),
  message_template_id: idValue,
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
  reason: z.string().nullish(),
  message_template_category: z.string().optional(),
  other_info: z.looseObject({ title: z.string().optional(), description: z.string().optional() }).optional(),
  rejection_info: z.looseObject({ reason: z.string().optional(), recommendation: z.string().optional() }).optional(),
  disable_info: z.looseObject({ disable_date: epochSeconds.optional() }).optional(),
});

export const qualityValue = z.looseObject({
  display_phone_number: z.string().min(1),
  event: z.string().min(1),
  current_limit: z.string().optional(),
  old_limit: z.string().optional(),
  max_daily_conversations_per_business: z.string().optional(),
});

/** `account_update`: only `event` is relied on; the rest (ban, violation, restriction details) is kept as sent. */
export const accountUpdateValue = z.looseObject({
  event: z.string().min(1),
  phone_number: z.string().optional(),
});

export type ReadChange =
  | { field: 'messages'; value: z.infer<typeof messagesValue> }
  | { field: 'smb_message_echoes'; value: z.infer<typeof echoesValue> }
  | { field: 'history'; value: z.infer<typeof historyValue> }
  | { field: 'message_template_status_update'; value: z.infer<typeof templateStatusValue> }
  | { field: 'phone_number_quality_update'; value: z.infer<typeof qualityValue> }
  | { field: 'account_update'; value: z.infer<typeof accountUpdateValue> }
  /** A field we do not follow (yet), or a value of a known field we could not read (`issue`). */
  | { field: 'ignored'; name: string; issue?: string };

const fieldSchemas = {
  messages: messagesValue,
  smb_message_echoes: echoesValue,
  history: historyValue,
  message_template_status_update: templateStatusValue,
  phone_number_quality_update: qualityValue,
  account_update: accountUpdateValue,
} as const;

/** One change's value, read by its field. */
export function readChange(change: { field: string; value: unknown }): ReadChange {
  const name = change.field;
  if (!Object.hasOwn(fieldSchemas, name)) return { field: 'ignored', name };
  const schema = fieldSchemas[name as keyof typeof fieldSchemas];
  const parsed = schema.safeParse(change.value);
  if (!parsed.success) return { field: 'ignored', name, issue: z.prettifyError(parsed.error) };
  return { field: name, value: parsed.data } as ReadChange;
}

// ─── The delivery ─────────────────────────────────────────────────────────────────────────────

export const delivery = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({
      /** The WhatsApp Business Account id. */
      id: z.string().min(1),
      time: epochSeconds.optional(),
      changes: z.array(z.looseObject({ field: z.string().min(1), value: z.unknown() })),
    }),
  ),
});
export type Delivery = z.infer<typeof delivery>;

export type OpenedDelivery =
  | { kind: 'ok'; delivery: Delivery }
  /** Not signed with the app secret: answer 401 (or 403), parse nothing, count it. */
  | { kind: 'refused'; reason: SignatureRefusal }
  /** Genuine but not a WhatsApp Business Account delivery we can read (not JSON, another `object`). */
  | { kind: 'invalid'; issue: string };

/**
 * A `POST` delivery from its raw bytes: the signature is checked on those bytes first, and only a
 * genuine body is decoded and parsed.
 */
export function openDelivery(rawBody: Uint8Array, headers: Record<string, string | undefined>, appSecret: string): OpenedDelivery {
  const check = verifySignature(rawBody, signatureHeader(headers), appSecret);
  if (!check.ok) return { kind: 'refused', reason: check.reason };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody));
  } catch (error) {
    return { kind: 'invalid', issue: `not JSON: ${(error as Error).message}` };
  }
  const parsed = delivery.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', issue: z.prettifyError(parsed.error) };
  return { kind: 'ok', delivery: parsed.data };
}
