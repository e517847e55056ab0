/**
 * A WhatsApp (API oficial) connection's message templates as we keep them (a copy of Meta's, by
 * Meta's template id), in the connection's partition: the purge of a connection or an account
 * removes them with it. Meta is the source of truth; a sync rewrites the copy, the webhook moves
 * a stored template's status.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageTemplate, TemplateStatus } from '#contracts/templates.ts';
import type { Table } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';

export interface MessageTemplateItem extends MessageTemplate {
  pk: string;
  sk: string;
  type: typeof entityTypes.messageTemplate;
  accountId: string;
}

export function messageTemplateItem(accountId: string, template: MessageTemplate): MessageTemplateItem {
  return { ...keys.messageTemplate(accountId, template.serviceId, template.id), type: entityTypes.messageTemplate, accountId, ...template };
}

export async function putMessageTemplate(table: Table, item: MessageTemplateItem): Promise<void> {
  await table.doc.send(new PutCommand({ TableName: table.name, Item: item }));
}

/** Every template of a connection (a few dozen at most). */
export function listMessageTemplates(table: Table, accountId: string, serviceId: string): Promise<MessageTemplateItem[]> {
  const { pk, skPrefix } = keys.connectionTemplates(accountId, serviceId);
  return queryAll<MessageTemplateItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
    ConsistentRead: true,
  });
}

export async function deleteMessageTemplate(table: Table, accountId: string, serviceId: string, templateId: string): Promise<void> {
  await table.doc.send(new DeleteCommand({ TableName: table.name, Key: keys.messageTemplate(accountId, serviceId, templateId) }));
}

/**
 * Moves a stored template to the status Meta's webhook reports; a template we do not keep (made
 * in Meta's manager and not synced yet) is left for the next sync. Answers whether one changed.
 */
export async function setMessageTemplateStatus(
  table: Table,
  at: { accountId: string; serviceId: string; templateId: string },
  change: { status: TemplateStatus; rejectionReason: string | null; now: string },
): Promise<boolean> {
  try {
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.messageTemplate(at.accountId, at.serviceId, at.templateId),
        UpdateExpression: 'SET #status = :status, rejectionReason = :reason, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': change.status, ':reason': change.rejectionReason, ':now': change.now },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
