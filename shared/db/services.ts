/** Connection (service) items. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CloudQualityRating, ServiceStatus, ServiceType } from '#contracts/services.ts';
import type { Table } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { type entityTypes, keys } from './keys.ts';
import { queryAll } from './users.ts';

export interface ServiceItem {
  pk: string;
  sk: string;
  type: typeof entityTypes.service;
  id: string;
  accountId: string;
  name: string;
  channelType: ServiceType;
  status: ServiceStatus;
  statusReason: string | null;
  qrCode: string | null;
  /** A WhatsApp pairing code to type on the phone (8 characters), shown instead of the QR. */
  pairingCode?: string | null;
  /** The phone number (digits with country code) the current run pairs by code; absent or null: by QR. */
  pairingPhone?: string | null;
  /** The Telegram bot token, sealed by the vault. */
  tokenSealed: string | null;
  /** The token's last four characters, to show which token is set (the Cloud API: of its access token). */
  tokenHint: string | null;
  /**
   * WhatsApp (API oficial): the ids (plain; the secrets are in `tokenSealed`), the app secret's last
   * four characters, and the number as Meta answered when the credentials were last checked.
   */
  cloud?: {
    phoneNumberId: string;
    wabaId: string;
    appSecretHint: string;
    displayPhoneNumber?: string;
    verifiedName?: string;
    qualityRating?: CloudQualityRating;
    /** What Meta's webhook handshake must bring as `hub.verify_token` (not a secret to Meta; answered to admins only). */
    verifyToken?: string;
  } | null;
  /** A new id at every start: a worker running an older run stops. Absent until first started. */
  runId?: string | null;
  /**
   * Set when the plan-limit consumer stopped the connection because the plan allows fewer
   * connections; such connections start again when the plan has room. Cleared by every start.
   */
  stoppedByLimit?: boolean;
  /** The department new conversations on this connection start in (docs/product.md#team-inbox). */
  defaultDepartmentId?: string | null;
  /** False: opening a conversation sends no read receipts. Absent (connections made before the setting): on. */
  readReceipts?: boolean;
  /** Index keys present while the connection should run (`keys.runningService`). */
  gsi1pk?: string;
  gsi1sk?: string;
  createdAt: string;
  updatedAt: string;
}

/** `consistent`: a strongly consistent read (the channel worker reconciling on a change it was told about). */
export async function getServiceItem(
  table: Table,
  accountId: string,
  serviceId: string,
  options: { consistent?: boolean } = {},
): Promise<ServiceItem | undefined> {
  const { Item } = await table.doc.send(
    new GetCommand({ TableName: table.name, Key: keys.service(accountId, serviceId), ...(options.consistent ? { ConsistentRead: true } : {}) }),
  );
  return Item as ServiceItem | undefined;
}

export function accountServices(table: Table, accountId: string): Promise<ServiceItem[]> {
  const { pk, skPrefix } = keys.accountServices(accountId);
  return queryAll<ServiceItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
  });
}

/** Whether a status means the connection should be receiving (and so sits in the running index). */
export const isRunningStatus = (status: ServiceStatus): boolean => status === 'starting' || status === 'isOnQrCode' || status === 'connected';

/**
 * Writes a connection's status. `runId` starts a new run; `onlyRun` writes only while that run is
 * still the current one (a worker reporting on a run that was replaced changes nothing). Answers
 * the item written, or undefined when the condition did not hold. `onlyFrom` writes only from those
 * statuses (a run reports `connected` only while it is still running, never after a shutdown).
 */
export async function writeServiceStatus(
  table: Table,
  service: Pick<ServiceItem, 'accountId' | 'id' | 'channelType'>,
  change: {
    status: ServiceStatus;
    statusReason?: string | null;
    qrCode?: string | null;
    pairingCode?: string | null;
    /** Written with a new run: the phone that run pairs by code (null: by QR). */
    pairingPhone?: string | null;
    runId?: string;
    /** true: stopped by the plan's limit; false: that mark is cleared (a start); absent: unchanged. */
    stoppedByLimit?: boolean;
    onlyRun?: string;
    onlyFrom?: ServiceStatus[];
    now: string;
  },
): Promise<ServiceItem | undefined> {
  const running = isRunningStatus(change.status);
  const index = keys.runningService(service.channelType, service.accountId, service.id);
  const sets = ['#status = :status', 'statusReason = :reason', 'updatedAt = :now'];
  const values: Record<string, unknown> = { ':status': change.status, ':reason': change.statusReason ?? null, ':now': change.now };
  if (change.qrCode !== undefined) {
    sets.push('qrCode = :qr');
    values[':qr'] = change.qrCode;
  }
  if (change.pairingCode !== undefined) {
    sets.push('pairingCode = :code');
    values[':code'] = change.pairingCode;
  }
  if (change.pairingPhone !== undefined) {
    sets.push('pairingPhone = :phone');
    values[':phone'] = change.pairingPhone;
  }
  if (change.runId) {
    sets.push('runId = :run');
    values[':run'] = change.runId;
  }
  const removes = running ? [] : ['gsi1pk', 'gsi1sk'];
  if (change.stoppedByLimit === true) {
    sets.push('stoppedByLimit = :byLimit');
    values[':byLimit'] = true;
  } else if (change.stoppedByLimit === false) removes.push('stoppedByLimit');
  if (running) {
    sets.push('gsi1pk = :g1pk', 'gsi1sk = :g1sk');
    values[':g1pk'] = index.gsi1pk;
    values[':g1sk'] = index.gsi1sk;
  }
  let condition = 'attribute_exists(pk)';
  if (change.onlyRun) {
    condition += ' AND runId = :only';
    values[':only'] = change.onlyRun;
  }
  if (change.onlyFrom) {
    condition += ` AND #status IN (${change.onlyFrom.map((_, i) => `:from${i}`).join(', ')})`;
    change.onlyFrom.forEach((status, i) => {
      values[`:from${i}`] = status;
    });
  }
  try {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.service(service.accountId, service.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ServiceItem;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Connections of a channel type that should be running, across accounts (gsi1; a worker resumes them). */
export function runningServices(table: Table, type: ServiceType): Promise<ServiceItem[]> {
  return queryAll<ServiceItem>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.runningServices(type).gsi1pk },
  });
}

/**
 * Stores Meta's quality rating of a Cloud API connection's number as a webhook reported it;
 * answers the rating it held before (undefined when the connection is gone or not a Cloud API one).
 */
export async function setCloudQuality(
  table: Table,
  accountId: string,
  serviceId: string,
  rating: CloudQualityRating,
  now: Date,
): Promise<{ before: CloudQualityRating | undefined } | undefined> {
  try {
    const { Attributes } = await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.service(accountId, serviceId),
        UpdateExpression: 'SET #cloud.qualityRating = :rating, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_type(#cloud, :map)',
        ExpressionAttributeNames: { '#cloud': 'cloud' },
        ExpressionAttributeValues: { ':rating': rating, ':now': now.toISOString(), ':map': 'M' },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    return { before: (Attributes?.cloud as { qualityRating?: CloudQualityRating } | undefined)?.qualityRating };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
