/**
 * What a customer's message does to the conversation (docs/product.md#team-inbox): a new contact starts in its
 * connection's default department, and a message to a resolved conversation reopens it, each with
 * a system line just before the message.
 */
import type { ContactFields, ContactItem } from '#db/contacts.ts';
import type { MessageItem } from '#db/messages.ts';
import { getServiceItem } from '#db/services.ts';
import { findDepartment } from '../departments/departments.ts';
import type { Ports } from '../ports.ts';
import { conversationLine, type LineContact } from './conversation-lines.ts';

export const reopenedText = 'Conversa reaberta por nova mensagem do cliente';
export const routedText = (department: string) => `Encaminhada para ${department}`;

/** The department a new conversation on this connection starts in (none when the connection names none, or an archived one). */
export async function routedDepartment(
  ports: Ports,
  from: { accountId: string; serviceId: string },
): Promise<Pick<ContactFields, 'departmentId' | 'department'>> {
  const service = await getServiceItem(ports.table, from.accountId, from.serviceId);
  const department = service?.defaultDepartmentId ? await findDepartment(ports, from.accountId, service.defaultDepartmentId) : undefined;
  if (!department || department.archivedAt) return {};
  return { departmentId: department.id, department: { id: department.id, name: department.name } };
}

/**
 * The line of a new conversation routed to a department ('Encaminhada para Vendas'), by nobody,
 * just before its first message (at `firstMessageAt`); none when it starts in no department.
 */
export function routedLines(ports: Ports, routed: Pick<ContactFields, 'department'>, firstMessageAt: string) {
  return (contact: LineContact): MessageItem[] => {
    if (!routed.department) return [];
    const at = (Date.parse(firstMessageAt) || ports.clock().getTime()) - 1;
    return [conversationLine(ports, contact, 'system', routedText(routed.department.name), null, at)];
  };
}

export function reopenOnInbound(
  ports: Ports,
  contact: ContactItem,
  messageTimestamp: string,
): { changes: Partial<ContactFields>; lines: MessageItem[] } | null {
  if (contact.status !== 'resolved') return null;
  const at = Date.parse(messageTimestamp) - 1;
  return { changes: { status: 'open' }, lines: [conversationLine(ports, contact, 'system', reopenedText, null, at)] };
}
