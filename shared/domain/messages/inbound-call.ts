/**
 * A WhatsApp call ringing on a QR connection (ADR-0220): the caller's
 * conversation gets a system line saying a call came, once per call id (the call id claims a
 * channel id of its own, so a repeated offer, a replay or a second worker records nothing more, and
 * a call already recorded is neither rejected nor answered again). Where the account switched
 * 'Rejeitar ligações do WhatsApp' on, the adapter's rejection runs first and the line says what
 * became of it: rejected, or, when the channel failed it (the connection closed, no answer in
 * time), received with the rejection not confirmed (the call may have rung on). Either way the
 * configured text goes to the caller as an automated message in the same write: the outbound
 * stream sends it like the lifecycle's automated messages (docs/conversation-lifecycle.md#automated-messages).
 */
import { fillAutomationText } from '#contracts/automations.ts';
import { channelMessageExists } from '#db/messages.ts';
import { lifecycleOf } from '../automations/apply-lifecycle.ts';
import { accountAutomationSettings } from '../automations/settings.ts';
import type { CallOutcome, InboundCall } from '../channels/port.ts';
import { automatedMessage, conversationLine } from '../conversations/conversation-lines.ts';
import type { Ports } from '../ports.ts';
import { contactFor, type InboundConnection } from './inbound.ts';
import { recordMessage } from './record-message.ts';

export const callRejectedText = (isVideo: boolean) => (isVideo ? 'Chamada de vídeo rejeitada automaticamente' : 'Ligação de voz rejeitada automaticamente');
export const callReceivedText = (isVideo: boolean) => (isVideo ? 'Chamada de vídeo recebida' : 'Ligação de voz recebida');
/** The line of a call the account rejects whose rejection the channel failed: it may have rung on. */
const callRejectFailedText = (isVideo: boolean) => `${callReceivedText(isVideo)} (rejeição automática não confirmada)`;

/** The rule name an automated answer to a call is marked with (`MessageItem.automated`). */
export const rejectCallsRule = 'rejectCalls';

/** The channel id a call claims, apart from every message id. */
const callGuard = (callId: string) => `call:${callId}`;

/**
 * Records a call in the caller's conversation, rejecting it first through `rejectOnChannel` where
 * the account rejects calls; answers whether it was rejected, or null for a call already recorded.
 */
export async function receiveCall(
  ports: Ports,
  from: InboundConnection,
  input: InboundCall,
  rejectOnChannel: () => Promise<void>,
): Promise<CallOutcome | null> {
  const guard = callGuard(input.callId);
  if (await channelMessageExists(ports.table, from.accountId, from.serviceId, guard)) return null;
  const contact = await contactFor(ports, from, input);
  const rule = (await accountAutomationSettings(ports, from.accountId)).rejectCalls;
  const reject = rule.enabled && contact.contactType === 'user';
  // A failure is the adapter's to log; here it only changes what the line says.
  const rejected =
    reject &&
    (await rejectOnChannel().then(
      () => true,
      () => false,
    ));
  const calledAt = Date.parse(input.timestamp) || ports.clock().getTime();
  const said = !reject ? callReceivedText(input.isVideo) : rejected ? callRejectedText(input.isVideo) : callRejectFailedText(input.isVideo);
  const line = conversationLine(ports, contact, 'system', said, null, calledAt);
  const text = reject
    ? fillAutomationText(rule.text, {
        contact: { name: contact.name },
        department: contact.department ?? null,
        protocol: lifecycleOf(contact).protocol,
        agent: contact.user ?? null,
      })
    : '';
  const answer = text.trim() ? automatedMessage(ports, contact, text, rejectCallsRule, Math.max(ports.clock().getTime(), calledAt + 1)) : null;
  // The answer, when there is one, is the conversation's last message; the line goes with it.
  const outcome = await recordMessage(ports, answer ?? line, {
    countUnread: true,
    guardChannelId: guard,
    contact,
    also: answer ? () => ({ changes: {}, lines: [line] }) : undefined,
  });
  return outcome.stored ? { rejected } : null;
}
