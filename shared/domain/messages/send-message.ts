/**
 * Sending: the message is stored at once with ack 0 (sending) and the sending user; the table's
 * stream hands it to the contact's channel (functions/streams/dispatch-outbound.ts), whose answer
 * moves the ack to 1 or to -2 with a reason. A failed message can be sent again.
 */
import { customerWindow } from '#contracts/customer-window.ts';
import { errorTexts } from '#contracts/errors.ts';
import { uploadKindOf } from '#contracts/files.ts';
import { ack, type Message, type SendMessagePayload } from '#contracts/messages.ts';
import { getFileItem } from '#db/files.ts';
import { getMessageItem, messageItem, retryFailedMessage, summaryOf, type MessageItem } from '#db/messages.ts';
import { getContactItem, type ContactItem } from '#db/contacts.ts';
import { listMessageTemplates } from '#db/message-templates.ts';
import { getServiceItem, type ServiceItem } from '#db/services.ts';
import { renderFilledTemplate, templateFillSchema, templateSendSpec } from '#contracts/template-fill.ts';
import { templateTexts, type TemplateSend } from '#contracts/templates.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { canSee, loadVisibleContact, viewerOf } from '../conversations/visibility.ts';
import { toMessage } from './present-message.ts';
import { type RecordOutcome, recordMessage } from './record-message.ts';
import type { Steps } from '#db/transaction.ts';
import { applyLifecycle } from '../automations/apply-lifecycle.ts';
import { signsMessages } from './signature.ts';
import { automationContext } from '../automations/automation-context.ts';
import { eventsWithoutAutomations } from '../automations/conversation-events.ts';
import { toTemplate } from '../templates/templates.ts';

/**
 * Free text (and media) to a WhatsApp Cloud API contact goes only while the 24-hour window is open
 * (customer-window.ts): refused here, before anything is stored or queued for Meta. Meta's own 131047
 * still fails a message whose window closed in between (connectors/whatsapp-cloud/errors.ts).
 */
function assertWindowOpen(ports: Ports, contact: Pick<ContactItem, 'lastInboundAt'>, service: Pick<ServiceItem, 'channelType'>): void {
  if (customerWindow({ lastInboundAt: contact.lastInboundAt, service: { type: service.channelType } }, ports.clock()).kind === 'closed') {
    throw fail.invalid(errorTexts.customerWindowClosed);
  }
}

const invalidField = (path: string, message: string) => fail.invalid(errorTexts.invalidParams, [{ path, message }]);

/**
 * What sending reads that follows from the account and the payload alone (the contact and the
 * connection): the HTTP route starts it while the session is checked (`api`'s `prefetch`).
 */
export function sendMessageReads(ports: Ports, accountId: string, payload: Pick<SendMessagePayload, 'contactId' | 'serviceId'>) {
  return Promise.all([getContactItem(ports.table, accountId, payload.contactId), getServiceItem(ports.table, accountId, payload.serviceId)]);
}

export async function sendMessage(
  ports: Ports,
  session: AccountSession,
  payload: SendMessagePayload,
  reads: ReturnType<typeof sendMessageReads> = sendMessageReads(ports, session.accountId, payload),
): Promise<Message> {
  const [[item, service], viewer] = await Promise.all([reads, viewerOf(ports, session)]);
  // A conversation the caller may not see answers 404, as one of another account (visibility.ts).
  if (!item || !canSee(viewer, item)) throw fail.notFound();
  const contact = item;
  if (contact.serviceId !== payload.serviceId) throw invalidField('serviceId', 'A conexão não é a do contato');
  if (contact.archivedAt) throw fail.invalid(errorTexts.contactArchived);
  if (service?.status !== 'connected') throw fail.invalid(errorTexts.serviceDisconnected);
  // A message template is what the window allows once it closed.
  if (!payload.template) assertWindowOpen(ports, contact, service);

  let file: MessageItem['file'] = null;
  let messageType: MessageItem['messageType'] = 'text';
  // A file is the message's, or a template's media header (shown like any file in the conversation).
  if (payload.fileId) {
    const record = await getFileItem(ports.table, session.accountId, payload.fileId);
    if (!record) throw invalidField('fileId', 'Arquivo não encontrado');
    const stored = await ports.storage.head(record.objectKey);
    const kind = uploadKindOf(record.mimetype);
    if (!stored || !kind || stored.size === 0 || stored.size > kind.maxBytes || stored.size !== record.size) {
      throw fail.invalid(errorTexts.fileNotUploaded);
    }
    file = { id: record.id, name: record.name, mimetype: record.mimetype, size: stored.size, objectKey: record.objectKey };
    messageType = record.messageType;
  }
  const template = payload.template ? await templateToSend(ports, session, contact, service, payload.template, file) : undefined;

  let quoted: MessageItem | undefined;
  if (payload.replyMessageId) {
    quoted = await getMessageItem(ports.table, session.accountId, contact.id, payload.replyMessageId);
    if (!quoted) throw invalidField('replyMessageId', 'Mensagem respondida não encontrada');
  }

  // A text or a caption goes under its author's name when the account signs (a template never: its text is Meta's approved one).
  const text = template ? template.text : payload.text.trim() ? payload.text : '';
  const signed = !template && text !== '' && (await signsMessages(ports, session));
  const now = ports.clock();
  const id = ports.newId(now.getTime());
  const message = messageItem({
    id,
    accountId: session.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    text,
    messageType,
    timestamp: now.toISOString(),
    isFromMe: true,
    ack: ack.sending,
    error: null,
    file,
    quotedMessage: quoted ? summaryOf(quoted) : null,
    replyMessageId: quoted?.id ?? null,
    replyToChannelMessageId: quoted?.channelMessageId ?? null,
    user: { id: session.user.id, name: session.user.name },
    groupContact: null,
    channelMessageId: null,
    sendAttempt: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...(template ? { template: template.send } : {}),
    ...(signed ? { signed: true as const } : {}),
  });
  await recordTeamMessage(ports, session, contact, message);
  return toMessage(message, ports.storage.downloadUrl);
}

/**
 * Stores a person's message to the customer (a send, a forward). The team's answer moves the
 * conversation's lifecycle (it stops the bot, cancels 'no one answered', arms inactivity), in the
 * write that stores it; with no automation on it moves nothing, and reports count its first answer.
 */
export async function recordTeamMessage(
  ports: Ports,
  session: Pick<AccountSession, 'accountId'> & { user: Pick<AccountSession['user'], 'id'> },
  contact: ContactItem,
  message: MessageItem,
  guards?: Steps,
): Promise<RecordOutcome> {
  const person = contact.contactType === 'user';
  const automations = person ? await automationContext(ports, session.accountId, contact.serviceId) : null;
  const at = Date.parse(message.timestamp) + 1;
  const event = { kind: 'agent_reply' as const, userId: session.user.id };
  return recordMessage(ports, message, {
    countUnread: false,
    contact,
    guards,
    also: automations
      ? (current) => {
          const outcome = applyLifecycle(ports, current, event, automations, { at, cause: 'team' });
          return outcome && { changes: outcome.changes, lines: outcome.lines, steps: outcome.steps };
        }
      : person
        ? (current) => {
            // No automation on: the conversation does not move, its first answer is still counted (ADR-0234).
            const changes = {};
            return { changes, lines: [], steps: eventsWithoutAutomations(current, event, changes, { at, cause: 'team' }) };
          }
        : undefined,
  });
}

/**
 * A template send checked against the connection's stored template (by name and language) with
 * the dialog's own schema (`templateFillSchema`): every value it needs (header, body, buttons; the
 * header's file of the format's type), contact fields filled, and the text the conversation shows.
 * Whether Meta approved it is Meta's to say (132001 on the bubble): the stored status may lag.
 */
async function templateToSend(
  ports: Ports,
  session: AccountSession,
  contact: ContactItem,
  service: ServiceItem | undefined,
  wanted: TemplateSend,
  file: MessageItem['file'],
): Promise<{ text: string; send: NonNullable<MessageItem['template']> }> {
  if (!service || !ports.channels.get(service.channelType)?.templates) throw fail.invalid(errorTexts.templatesUnsupported);
  const templates = await listMessageTemplates(ports.table, session.accountId, service.id);
  const template = templates.find((t) => t.name === wanted.name && t.language === wanted.language);
  if (!template) throw invalidField('template.name', templateTexts.templateNotFound);
  // Meta refuses any other (132015 paused, 132016 disabled, 132001 for one not yet approved): said here, before the queue.
  if (template.status !== 'APPROVED') throw invalidField('template.name', templateTexts.templateNotApproved(template.status));
  const stored = toTemplate(template);
  const filled = templateFillSchema(stored, {
    contact: { name: contact.name, data: { phoneNumber: contact.phoneNumber, email: contact.email } },
    agent: { name: session.user.name },
  }).safeParse({ parameters: wanted.parameters, header: wanted.header, buttons: wanted.buttons, media: file && { mimetype: file.mimetype } });
  if (!filled.success)
    throw fail.invalid(
      errorTexts.invalidParams,
      filled.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  return { text: renderFilledTemplate(stored, filled.data), send: templateSendSpec(stored, filled.data) };
}

/** Sends a failed message again: back to ack 0, which hands it to the channel once more. */
export async function retryMessage(ports: Ports, session: AccountSession, contactId: string, messageId: string): Promise<Message> {
  const contact = await loadVisibleContact(ports, session, contactId);
  if (contact.archivedAt) throw fail.invalid(errorTexts.contactArchived);
  const service = await getServiceItem(ports.table, session.accountId, contact.serviceId);
  if (service?.status !== 'connected') throw fail.invalid(errorTexts.serviceDisconnected);
  const existing = await getMessageItem(ports.table, session.accountId, contactId, messageId);
  if (!existing) throw fail.notFound();
  // A template may go once the window closed, on its retry too; free text may not.
  if (!existing.template) assertWindowOpen(ports, contact, service);
  const retried = await retryFailedMessage(ports.table, { accountId: session.accountId, contactId, id: messageId }, ports.clock().toISOString());
  if (retried) return toMessage(retried, ports.storage.downloadUrl);
  throw fail.invalid(errorTexts.cannotRetry);
}
