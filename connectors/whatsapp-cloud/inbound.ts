/**
 * A verified, parsed Cloud API delivery (./webhook-payload.ts) as a list of plain events for the
 * product: messages in the port's inbound shape (their file as a reference to fetch later through
 * `GET /{media-id}`), reactions, edits and deletions (coexistence numbers only: see ADR-0211's
 * amendment), acks of what we sent, template status changes, phone number
 * quality and messaging-limit changes, account updates, and the Business app's own messages
 * (coexistence echoes and history) as messages from us. Pure: no network, no table, no clock but
 * the `now` it is given; the caller hands the events to the `InboundSink` and fetches the files.
 *
 * Every message, reaction and ack names its WhatsApp message id (`wamid`): Meta redelivers a call
 * it did not see answered, so the same wamid may come twice, and the caller deduplicates on it (the
 * sink stores a message once per channel id already).
 */
import { ack as acks, type MessageType } from '#contracts/messages.ts';
import type { InboundAck, InboundDeletion, InboundEdit, InboundMessage, InboundReaction } from '#domain/channels/port.ts';
import { ackOfStatus } from './acks.ts';
import { failedStatusReason, cloudErrorMeaning } from './errors.ts';
import { readChange, readMessage, statusUpdate, type CloudError, type CloudMessage, type Delivery } from './webhook-payload.ts';
import { inboundFileName } from '#media/file-names.ts';

/** A message's file, to be fetched later with the connection's token (`GET /{media-id}`, then its short-lived URL). */
export interface CloudMediaRef {
  mediaId: string;
  mimetype: string;
  sha256: string | null;
  /** The document's own name; null for other media. */
  filename: string | null;
  /** The name to store the file under (the document's own, or one made from the kind and media id). */
  name: string;
  voice: boolean;
  /** The text stored instead when the file cannot be had (pt-BR). */
  unavailableText: string;
}

/** A message as the port takes it, without the file loader (the caller builds `media` from the reference). */
export type CloudInboundMessage = Omit<InboundMessage, 'media'>;

interface Where {
  /** The WhatsApp Business Account id (`entry.id`). */
  wabaId: string;
}
interface OnNumber extends Where {
  /** Our number's id on the Cloud API (`metadata.phone_number_id`): which connection. */
  phoneNumberId: string;
}

export type CloudEvent =
  | (OnNumber & {
      kind: 'message';
      wamid: string;
      /** `customer`: sent to us; `echo`: sent from the WhatsApp Business app (coexistence); `history`: a past message shared at onboarding. */
      origin: 'customer' | 'echo' | 'history';
      message: CloudInboundMessage;
      media: CloudMediaRef | null;
      forwarded: 'no' | 'forwarded' | 'frequently';
    })
  | (OnNumber & { kind: 'reaction'; wamid: string; reaction: InboundReaction })
  /** An earlier message edited (its new text or caption) or deleted for everyone, named by its own wamid in `edit`/`deletion`. */
  | (OnNumber & { kind: 'edit'; wamid: string; edit: InboundEdit })
  | (OnNumber & { kind: 'deletion'; wamid: string; deletion: InboundDeletion })
  | (OnNumber & {
      kind: 'ack';
      wamid: string;
      ack: InboundAck;
      /** The status's own time (ISO). */
      timestamp: string;
      recipientId: string | null;
      errorCodes: number[];
      /** Meta's pricing category (`service`, `marketing`, ...) when the status carries it. */
      pricingCategory: string | null;
    })
  /** The customer moved to another number (`system` message `user_changed_number`). */
  | (OnNumber & { kind: 'numberChanged'; wamid: string; from: string; to: string })
  | (Where & {
      kind: 'template';
      templateId: string;
      name: string;
      language: string;
      /** Meta's event: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, FLAGGED, REINSTATED, ... */
      event: string;
      category: string | null;
      reason: string | null;
      text: string;
    })
  | (Where & {
      kind: 'quality';
      displayPhoneNumber: string;
      event: string;
      /** The messaging limit now and before, as Meta names it (TIER_1K, TIER_UNLIMITED, ...), when the change says. */
      limit: string | null;
      previousLimit: string | null;
      text: string;
      /** Quality fell to low (red) or the limit went down: worth an alarm. */
      alarm: boolean;
    })
  | (Where & { kind: 'account'; event: string; phoneNumber: string | null; text: string; alarm: boolean; details: Record<string, unknown> })
  /** Errors Meta reported outside any message (`value.errors`, a history that could not be shared). */
  | (Where & { kind: 'channelError'; phoneNumberId: string | null; errors: { code: number; text: string; details: string | null }[] })
  /** A change not followed, or not readable: counted and logged by the caller. */
  | (Where & { kind: 'ignored'; field: string; issue: string | null });

export interface MappingOptions {
  /** Milliseconds since the epoch: the moment of reception, for message times (see `messageTime`). @default Date.now() */
  now?: number;
}

// ─── Times ─────────────────────────────────────────────────────────────────────────────────────

/** Epoch seconds as ISO, exactly. */
export function isoOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/**
 * A received message's time: within its second, the moment it was received (never outside that
 * second), so a burst of one second keeps its order and a customer's answer sorts after a reply
 * sent earlier in the same second, as the QR and Telegram channels do.
 */
export function messageTime(seconds: number, now: number): string {
  const start = seconds * 1000;
  return new Date(Math.min(Math.max(now, start), start + 999)).toISOString();
}

// ─── Readable texts (pt-BR) ────────────────────────────────────────────────────────────────────

const unsupportedLabels: Record<string, string> = {
  edit: 'edição de mensagem',
  unknown: 'tipo desconhecido',
};

/** What the inbox shows for a message the Cloud API does not hand over. */
export function unsupportedText(originalType: string, fromMe: boolean): string {
  const label = unsupportedLabels[originalType] ?? originalType;
  return fromMe
    ? `[mensagem não suportada] Uma mensagem enviada pelo aplicativo WhatsApp Business não pode ser exibida aqui (${label}).`
    : `[mensagem não suportada] O cliente enviou um conteúdo que a API oficial do WhatsApp não entrega (${label}). Se precisar dele, peça que envie de outra forma.`;
}

/** A place, as the QR channel writes it. */
export function locationText(location: { latitude: number; longitude: number; name?: string; address?: string }): string {
  const place = [location.name, location.address].filter(Boolean).join(', ');
  return `[localização] https://maps.google.com/?q=${location.latitude},${location.longitude}${place ? ` (${place})` : ''}`;
}

/** Contact cards, one a line, as the QR channel writes them: the name and the WhatsApp number (or the phone as typed). */
export function contactsText(
  cards: readonly {
    name?: { formatted_name?: string; first_name?: string; last_name?: string };
    phones?: readonly { phone?: string; wa_id?: string }[];
  }[],
): string {
  return cards
    .map((card) => {
      const name = card.name?.formatted_name || [card.name?.first_name, card.name?.last_name].filter(Boolean).join(' ');
      const phone = card.phones?.[0];
      const number = phone?.wa_id ? `+${phone.wa_id}` : (phone?.phone?.trim() ?? '');
      return `[contato] ${[name, number].filter(Boolean).join(' ')}`;
    })
    .join('\n');
}

function money(value: number, currency: string | undefined): string {
  if (!currency) return String(value);
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency }).format(value);
  } catch {
    return `${currency} ${value}`;
  }
}

/** An order from the business's catalogue: its note, then one item a line. */
export function orderText(order: {
  text?: string;
  product_items: readonly { product_retailer_id: string; quantity: number; item_price?: number; currency?: string }[];
}): string {
  const items = order.product_items.map(
    (item) => `${item.quantity}× ${item.product_retailer_id}${item.item_price !== undefined ? ` (${money(item.item_price, item.currency)})` : ''}`,
  );
  return [`[pedido] ${order.text ?? ''}`.trimEnd(), ...items].join('\n');
}

// ─── Messages ─────────────────────────────────────────────────────────────────────────────────

interface Rendered {
  type: MessageType;
  text: string;
  media: CloudMediaRef | null;
  /** The id of the button or list row the customer picked (our option's key). */
  choice?: string;
}

/** What a message shows: its type in the product, its text, and its file if any. */
export function renderMessage(message: CloudMessage, fromMe: boolean): Rendered {
  switch (message.type) {
    case 'text':
      return { type: 'text', text: message.content.body, media: null };
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const c = message.content;
      const voice = message.type === 'audio' && c.voice === true;
      const type: MessageType = message.type === 'sticker' ? 'image' : message.type === 'audio' ? (voice ? 'voice' : 'audio') : message.type;
      const name =
        message.type === 'document'
          ? c.filename || inboundFileName('arquivo', c.id, c.mime_type, 'bin')
          : message.type === 'image'
            ? inboundFileName('imagem', c.id, c.mime_type, 'jpg')
            : message.type === 'video'
              ? inboundFileName('video', c.id, c.mime_type, 'mp4')
              : message.type === 'sticker'
                ? inboundFileName('figurinha', c.id, c.mime_type, 'webp')
                : inboundFileName(voice ? 'voz' : 'audio', c.id, c.mime_type, voice ? 'ogg' : 'mp3');
      return {
        type,
        text: c.caption ?? '',
        media: {
          mediaId: c.id,
          mimetype: c.mime_type,
          sha256: c.sha256 ?? null,
          filename: message.type === 'document' ? (c.filename ?? null) : null,
          name,
          voice,
          unavailableText: message.type === 'sticker' ? '[figurinha]' : 'mídia indisponível',
        },
      };
    }
    case 'location':
      return { type: 'text', text: locationText(message.content), media: null };
    case 'contacts':
      return { type: 'text', text: contactsText(message.content), media: null };
    case 'interactive': {
      const c = message.content;
      const picked = c.type === 'button_reply' ? c.button_reply : c.list_reply;
      return { type: 'text', text: picked.title, media: null, choice: picked.id };
    }
    case 'button':
      return { type: 'text', text: message.content.text, media: null };
    case 'order':
      return { type: 'text', text: orderText(message.content), media: null };
    case 'system': {
      const c = message.content;
      if (c.type === 'user_changed_number' && c.wa_id)
        return { type: 'text', text: `[aviso] O contato mudou de número no WhatsApp: agora é +${c.wa_id}.`, media: null };
      return { type: 'text', text: `[aviso do WhatsApp] ${c.body ?? c.type ?? ''}`.trimEnd(), media: null };
    }
    case 'unsupported':
      return { type: 'text', text: unsupportedText(message.originalType, fromMe), media: null };
    case 'reaction':
    case 'edit':
    case 'revoke':
      // Reactions, edits and deletions are not messages; mapped apart (`messageEvents`).
      return { type: 'text', text: '', media: null };
  }
}

/** Digits only (a display phone number may carry '+', spaces or dashes). */
const digits = (value: string) => value.replace(/\D/g, '');

interface MessageScope extends OnNumber {
  /** Our number as Meta displays it, for reactions made from the Business app. */
  displayPhoneNumber: string;
  /** Profile names by wa_id (`value.contacts`). */
  names: Map<string, string>;
  origin: 'customer' | 'echo' | 'history';
  now: number;
}

/** The events one message makes: a message (with a `numberChanged` for a changed number), a reaction, an edit or a deletion. */
function messageEvents(scope: MessageScope, raw: unknown, fromMeOverride?: boolean): CloudEvent[] {
  const message = readMessage(raw);
  if (!message) return [{ kind: 'ignored', wabaId: scope.wabaId, field: 'messages', issue: 'a message without from, id, timestamp or type' }];
  const base = message.base;
  // Echoes and the business's own history messages carry `to`: the customer they went to.
  const fromMe = fromMeOverride ?? (scope.origin === 'echo' || (scope.origin === 'history' && base.to !== undefined));
  const customer = fromMe ? (base.to ?? '') : base.from;
  if (!customer) return [{ kind: 'ignored', wabaId: scope.wabaId, field: 'messages', issue: `message ${base.id} names no customer` }];
  const common = { wabaId: scope.wabaId, phoneNumberId: scope.phoneNumberId, wamid: base.id };
  const at = scope.origin === 'history' ? isoOfSeconds(base.timestamp) : messageTime(base.timestamp, scope.now);

  if (message.type === 'reaction') {
    const reactorId = fromMe ? digits(scope.displayPhoneNumber) : base.from;
    return [
      {
        kind: 'reaction',
        ...common,
        reaction: {
          channelMessageId: message.content.message_id,
          reactorId,
          fromMe,
          emoji: message.content.emoji ?? '',
          timestamp: isoOfSeconds(base.timestamp),
        },
      },
    ];
  }

  if (message.type === 'edit') {
    const edited = message.content.message;
    const text = edited.text?.body ?? edited.image?.caption ?? edited.video?.caption ?? edited.document?.caption;
    if (text === undefined) return [{ kind: 'ignored', wabaId: scope.wabaId, field: 'messages', issue: `edit ${base.id} carries no text or caption` }];
    return [{ kind: 'edit', ...common, edit: { channelMessageId: message.content.original_message_id, text } }];
  }
  if (message.type === 'revoke') return [{ kind: 'deletion', ...common, deletion: { channelMessageId: message.content.original_message_id } }];

  const rendered = renderMessage(message, fromMe);
  const context = base.context;
  const events: CloudEvent[] = [
    {
      kind: 'message',
      ...common,
      origin: scope.origin,
      message: {
        channelMessageId: base.id,
        chat: {
          idFromService: customer,
          // A chat is named after the customer's own profile name, never ours.
          name: fromMe ? '' : (scope.names.get(customer) ?? ''),
          isGroup: false,
          phoneNumber: digits(customer) || null,
        },
        author: null,
        isFromMe: fromMe,
        type: rendered.type,
        text: rendered.text,
        replyToChannelMessageId: context?.id ?? null,
        ...(rendered.choice ? { choice: rendered.choice } : {}),
        timestamp: at,
      },
      media: rendered.media,
      forwarded: context?.frequently_forwarded ? 'frequently' : context?.forwarded ? 'forwarded' : 'no',
    },
  ];
  if (message.type === 'system' && message.content.type === 'user_changed_number' && message.content.wa_id) {
    events.push({ kind: 'numberChanged', ...common, from: base.from, to: message.content.wa_id });
  }
  return events;
}

function statusEvent(scope: OnNumber, raw: unknown): CloudEvent | null {
  const parsed = statusUpdate.safeParse(raw);
  if (!parsed.success) return { kind: 'ignored', wabaId: scope.wabaId, field: 'messages', issue: 'a status without id, status or timestamp' };
  const status = parsed.data;
  const code = ackOfStatus(status.status);
  if (code === null) return null;
  const errors = status.errors ?? [];
  return {
    kind: 'ack',
    wabaId: scope.wabaId,
    phoneNumberId: scope.phoneNumberId,
    wamid: status.id,
    ack: { channelMessageId: status.id, ack: code, ...(code === acks.error ? { reason: failedStatusReason(errors) } : {}) },
    timestamp: isoOfSeconds(status.timestamp),
    recipientId: status.recipient_id ?? null,
    errorCodes: errors.map((e) => e.code),
    pricingCategory: status.pricing?.category ?? null,
  };
}

function channelErrors(errors: readonly CloudError[]): { code: number; text: string; details: string | null }[] {
  return errors.map((e) => ({ code: e.code, text: cloudErrorMeaning(e.code).text, details: e.error_data?.details ?? e.message ?? null }));
}

// ─── Account-level events ─────────────────────────────────────────────────────────────────────

const templateEvents: Record<string, string> = {
  APPROVED: 'foi aprovado pela Meta e já pode ser enviado',
  REJECTED: 'foi recusado pela Meta',
  PENDING: 'está em análise pela Meta',
  PAUSED: 'foi pausado pela Meta por avaliações negativas dos clientes',
  DISABLED: 'foi desativado pela Meta por avaliações negativas dos clientes',
  FLAGGED: 'recebeu avaliações negativas e pode ser desativado',
  REINSTATED: 'foi liberado de novo e já pode ser enviado',
  IN_APPEAL: 'está em recurso na Meta',
  LOCKED: 'foi bloqueado para edição',
  ARCHIVED: 'foi arquivado',
  UNARCHIVED: 'foi desarquivado',
  DELETED: 'foi excluído',
  PENDING_DELETION: 'foi excluído e será removido em breve',
  LIMIT_EXCEEDED: 'não pôde ser criado: a conta atingiu o limite de modelos',
};

export const templateReasons: Record<string, string> = {
  ABUSIVE_CONTENT: 'conteúdo abusivo',
  INCORRECT_CATEGORY: 'categoria incorreta',
  INVALID_FORMAT: 'formato inválido',
  PROMOTIONAL: 'conteúdo promocional numa categoria que não permite',
  SCAM: 'suspeita de golpe',
  TAG_CONTENT_MISMATCH: 'o conteúdo não corresponde à categoria',
  CATEGORY_NOT_AVAILABLE: 'categoria indisponível',
};

/** A template status change in pt-BR, for the connection's page. */
export function templateText(value: { event: string; message_template_name: string; message_template_language: string; reason?: string | null }): string {
  const what = templateEvents[value.event] ?? `mudou de situação na Meta (${value.event})`;
  const reason = value.reason && value.reason !== 'NONE' ? (templateReasons[value.reason] ?? value.reason) : null;
  return `O modelo "${value.message_template_name}" (${value.message_template_language}) ${what}${reason ? ` (motivo: ${reason})` : ''}.`;
}

/** A messaging limit as Meta names it (TIER_1K, TIER_UNLIMITED, ...) in pt-BR. */
export function limitText(tier: string): string {
  if (tier === 'TIER_UNLIMITED') return 'sem limite';
  if (tier === 'TIER_NOT_SET') return 'ainda não definido';
  const m = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!m) return tier;
  const count = Number(m[1]) * (m[2] ? 1000 : 1);
  return `${count.toLocaleString('pt-BR')} conversas por dia`;
}

/** A quality or messaging-limit change in pt-BR, and whether it is worth an alarm. */
export function qualityText(value: { event: string; current_limit?: string; old_limit?: string; max_daily_conversations_per_business?: string }): {
  text: string;
  alarm: boolean;
} {
  const limit = value.max_daily_conversations_per_business ?? value.current_limit;
  const now = limit ? ` Limite atual: ${limitText(limit)}.` : '';
  switch (value.event) {
    case 'FLAGGED':
      return { text: `A qualidade deste número caiu para baixa (vermelha) no WhatsApp: reduza os envios e confira as mensagens recentes.${now}`, alarm: true };
    case 'UNFLAGGED':
      return { text: `A qualidade deste número voltou ao normal no WhatsApp.${now}`, alarm: false };
    case 'DOWNGRADE':
      return { text: `O limite de conversas deste número foi reduzido pelo WhatsApp.${now}`, alarm: true };
    case 'UPGRADE':
      return { text: `O limite de conversas deste número foi aumentado pelo WhatsApp.${now}`, alarm: false };
    case 'THROUGHPUT_UPGRADE':
      return { text: `Este número passou a enviar mais mensagens por segundo.${now}`, alarm: false };
    case 'ONBOARDING':
      return { text: `Este número ainda está sendo registrado no WhatsApp.${now}`, alarm: false };
    default:
      return { text: `O WhatsApp mudou a situação deste número (${value.event}).${now}`, alarm: false };
  }
}

const accountEvents: Record<string, { text: string; alarm: boolean }> = {
  ACCOUNT_VIOLATION: { text: 'A Meta registrou uma violação de política na conta do WhatsApp Business.', alarm: true },
  ACCOUNT_RESTRICTION: { text: 'A Meta restringiu a conta do WhatsApp Business: alguns envios podem ser recusados.', alarm: true },
  DISABLED_UPDATE: { text: 'A Meta desativou ou reativou a conta do WhatsApp Business. Confira a conta no Gerenciador do WhatsApp.', alarm: true },
};

// ─── The delivery ─────────────────────────────────────────────────────────────────────────────

/** Every event of a delivery, in the order Meta listed them. */
export function deliveryEvents(delivery: Delivery, options: MappingOptions = {}): CloudEvent[] {
  const now = options.now ?? Date.now();
  const events: CloudEvent[] = [];
  for (const entry of delivery.entry) {
    const wabaId = entry.id;
    for (const change of entry.changes) {
      const read = readChange(change);
      switch (read.field) {
        case 'ignored':
          events.push({ kind: 'ignored', wabaId, field: read.name, issue: read.issue ?? null });
          break;
        case 'messages': {
          const v = read.value;
          const names = new Map((v.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? '']));
          const scope: MessageScope = {
            wabaId,
            phoneNumberId: v.metadata.phone_number_id,
            displayPhoneNumber: v.metadata.display_phone_number,
            names,
            origin: 'customer',
            now,
          };
          for (const message of v.messages ?? []) events.push(...messageEvents(scope, message, false));
          for (const status of v.statuses ?? []) {
            const event = statusEvent(scope, status);
            if (event) events.push(event);
          }
          if (v.errors?.length) events.push({ kind: 'channelError', wabaId, phoneNumberId: scope.phoneNumberId, errors: channelErrors(v.errors) });
          break;
        }
        case 'smb_message_echoes': {
          const v = read.value;
          const scope: MessageScope = {
            wabaId,
            phoneNumberId: v.metadata.phone_number_id,
            displayPhoneNumber: v.metadata.display_phone_number,
            names: new Map(),
            origin: 'echo',
            now,
          };
          for (const message of v.message_echoes) events.push(...messageEvents(scope, message, true));
          break;
        }
        case 'history': {
          const v = read.value;
          const scope: MessageScope = {
            wabaId,
            phoneNumberId: v.metadata.phone_number_id,
            displayPhoneNumber: v.metadata.display_phone_number,
            names: new Map(),
            origin: 'history',
            now,
          };
          for (const chunk of v.history) {
            if (chunk.errors?.length) events.push({ kind: 'channelError', wabaId, phoneNumberId: scope.phoneNumberId, errors: channelErrors(chunk.errors) });
            for (const thread of chunk.threads ?? []) for (const message of thread.messages) events.push(...messageEvents(scope, message));
          }
          break;
        }
        case 'message_template_status_update': {
          const v = read.value;
          events.push({
            kind: 'template',
            wabaId,
            templateId: v.message_template_id,
            name: v.message_template_name,
            language: v.message_template_language,
            event: v.event,
            category: v.message_template_category ?? null,
            reason: v.reason && v.reason !== 'NONE' ? v.reason : null,
            text: templateText(v),
          });
          break;
        }
        case 'phone_number_quality_update': {
          const v = read.value;
          const { text, alarm } = qualityText(v);
          events.push({
            kind: 'quality',
            wabaId,
            displayPhoneNumber: v.display_phone_number,
            event: v.event,
            limit: v.max_daily_conversations_per_business ?? v.current_limit ?? null,
            previousLimit: v.old_limit ?? null,
            text,
            alarm,
          });
          break;
        }
        case 'account_update': {
          const { event, phone_number, ...details } = read.value;
          const known = accountEvents[event];
          events.push({
            kind: 'account',
            wabaId,
            event,
            phoneNumber: phone_number ?? null,
            text: known?.text ?? `A conta do WhatsApp Business foi atualizada na Meta (${event}).`,
            alarm: known?.alarm ?? false,
            details,
          });
          break;
        }
      }
    }
  }
  return events;
}
