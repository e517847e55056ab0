/** Connections: list, read, create, update and delete, with the plan's connection limit (docs/product.md#plans-and-limits). */
import { randomBytes } from 'node:crypto';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import {
  cloudCredentialTexts,
  type CloudCredentials,
  type Service,
  type ServiceCreatePayload,
  type ServiceType,
  type ServiceUpdatePayload,
} from '#contracts/services.ts';
import type { ServicePairing } from '#contracts/pairing.ts';
import { getAccountItem, releaseSeatStep, takeSeatStep } from '#db/accounts.ts';
import { claimStep, releaseClaimStep } from '#db/channel-records.ts';
import { deleteCloudWebhookStep, putCloudWebhookStep } from '#db/cloud-webhooks.ts';
import { deleteExistingStep, putNewStep, refusedBy, replaceIfUnchangedStep, writeTogether } from '#db/transaction.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { accountServices, getServiceItem, isRunningStatus, type ServiceItem } from '#db/services.ts';
import { isBeyondLimit } from '../billing/plan-limits.ts';
import { findDepartment } from '../departments/departments.ts';
import { fail } from '../errors.ts';
import type { ChannelProfile } from '../channels/port.ts';
import { cloudCredentialsToken, parseCloudCredentials } from '../channels/cloud-credentials.ts';
import { forgetConnection, startConnection, stopConnection, verifyCredentials } from './lifecycle.ts';
import { toService } from './present-service.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

export const serviceListRules: ListRules = {
  fields: ['id', 'name', 'type', 'status', 'connected', 'createdAt', 'updatedAt'],
  defaultOrder: [['name', 'ASC']],
};

export async function listServices(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Service>> {
  return applyListQuery(
    (await accountServices(ports.table, session.accountId)).map((item) => toService(item, { admin: session.user.isAdmin })),
    q,
  );
}

export async function loadService(ports: Ports, session: AccountSession, id: string): Promise<ServiceItem> {
  const item = await getServiceItem(ports.table, session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function getService(ports: Ports, session: AccountSession, id: string): Promise<Service> {
  return toService(await loadService(ports, session, id), { admin: session.user.isAdmin });
}

/** The exclusive claim a connection's credentials make, if its channel asks for one. */
export function exclusiveClaim(ports: Ports, type: ServiceType, token: string | null) {
  const claim = token ? ports.channels.get(type)?.credentials?.exclusive?.(token) : undefined;
  return claim ? { ...claim, channel: type } : null;
}

function inUse(claim: NonNullable<ReturnType<typeof exclusiveClaim>>) {
  return fail.invalid(claim.inUse.error, [{ path: claim.inUse.path, message: claim.inUse.message }]);
}

/** A connection's default department must be one of the account's, not archived. */
async function checkDepartment(ports: Ports, session: AccountSession, id: string | null): Promise<void> {
  if (!id) return;
  const department = await findDepartment(ports, session.accountId, id);
  if (!department || department.archivedAt) {
    throw fail.invalid(errorTexts.invalidParams, [{ path: 'defaultDepartmentId', message: 'Departamento não encontrado' }]);
  }
}

/** The Cloud API's credentials of a payload, over the current ones (an update names only what changes); null when incomplete. */
function cloudCredentialsOf(payload: Partial<CloudCredentials>, current: CloudCredentials | null): CloudCredentials | null {
  const phoneNumberId = payload.phoneNumberId ?? current?.phoneNumberId;
  const wabaId = payload.wabaId ?? current?.wabaId;
  const accessToken = payload.accessToken ?? current?.accessToken;
  const appSecret = payload.appSecret ?? current?.appSecret;
  return phoneNumberId && wabaId && accessToken && appSecret ? { phoneNumberId, wabaId, accessToken, appSecret } : null;
}

/** The token to seal for a connection's credentials, with what is kept of them in plain (hints, ids, what the channel answered). */
function sealedParts(type: ServiceType, token: string, profile: ChannelProfile | null, verifyToken?: string): Pick<ServiceItem, 'tokenHint' | 'cloud'> {
  const cloud = type === 'whatsapp_cloud' ? parseCloudCredentials(token) : null;
  if (!cloud) return { tokenHint: token.slice(-4) };
  return {
    tokenHint: cloud.accessToken.slice(-4),
    cloud: {
      phoneNumberId: cloud.phoneNumberId,
      wabaId: cloud.wabaId,
      appSecretHint: cloud.appSecret.slice(-4),
      ...(profile ?? {}),
      ...(verifyToken ? { verifyToken } : {}),
    },
  };
}

/** A WhatsApp (API oficial) connection's verify token for Meta's webhook handshake: 32 random bytes, URL-safe. */
const newVerifyToken = () => randomBytes(32).toString('base64url');

export async function createService(ports: Ports, session: AccountSession, payload: ServiceCreatePayload): Promise<Service> {
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  const cloud = payload.type === 'whatsapp_cloud' ? cloudCredentialsOf(payload, null) : null;
  const token = payload.type === 'telegram' ? payload.token! : cloud ? cloudCredentialsToken(cloud) : null;
  await checkDepartment(ports, session, payload.defaultDepartmentId);
  const profile = await verifyCredentials(ports, payload.type, token, { registrationPin: payload.registrationPin });
  const now = ports.clock().toISOString();
  const id = ports.newId();
  const verifyToken = payload.type === 'whatsapp_cloud' ? newVerifyToken() : undefined;
  const item: ServiceItem = {
    ...keys.service(session.accountId, id),
    type: entityTypes.service,
    id,
    accountId: session.accountId,
    name: payload.name,
    channelType: payload.type,
    status: 'disconnected',
    statusReason: null,
    qrCode: null,
    tokenSealed: token ? await ports.vault.seal(token) : null,
    ...(token ? sealedParts(payload.type, token, profile, verifyToken) : { tokenHint: null }),
    defaultDepartmentId: payload.defaultDepartmentId,
    readReceipts: payload.readReceipts !== false,
    createdAt: now,
    updatedAt: now,
  };
  const claim = exclusiveClaim(ports, payload.type, token);
  const holder = { accountId: session.accountId, serviceId: id };
  try {
    await writeTogether(ports.table, {
      seat: takeSeatStep(session.accountId, 'servicesCount', effectiveLimits(account.plan).connections),
      service: putNewStep(item),
      claim: claim && claimStep(claim, holder),
      hook: verifyToken ? putCloudWebhookStep({ accountId: session.accountId, serviceId: id, verifyToken }, now) : null,
    });
  } catch (error) {
    if (refusedBy(error, 'seat')) throw fail.limit(errorTexts.serviceLimit);
    if (claim && refusedBy(error, 'claim')) throw inUse(claim);
    throw error;
  }
  return toService(item, { admin: session.user.isAdmin });
}

/** The token an update brings, when it changes the credentials (null: unchanged). */
function newToken(type: ServiceType, currentToken: string | null, payload: ServiceUpdatePayload): string | null {
  if (type === 'telegram') return payload.token && payload.token !== currentToken ? payload.token : null;
  if (type !== 'whatsapp_cloud') return null;
  const current = parseCloudCredentials(currentToken);
  const next = cloudCredentialsOf(payload, current);
  if (!next) {
    if (payload.phoneNumberId || payload.wabaId || payload.accessToken || payload.appSecret) {
      throw fail.invalid(errorTexts.invalidParams, [{ path: 'accessToken', message: cloudCredentialTexts.accessTokenRequired }]);
    }
    return null;
  }
  const token = cloudCredentialsToken(next);
  return current && token === cloudCredentialsToken(current) ? null : token;
}

export async function updateService(ports: Ports, session: AccountSession, id: string, payload: ServiceUpdatePayload): Promise<Service> {
  const current = await loadService(ports, session, id);
  if (payload.type && payload.type !== current.channelType) {
    throw fail.invalid(errorTexts.invalidParams, [{ path: 'type', message: 'O tipo da conexão não pode ser alterado' }]);
  }
  if (payload.defaultDepartmentId) await checkDepartment(ports, session, payload.defaultDepartmentId);
  const currentToken = current.tokenSealed ? await ports.vault.open(current.tokenSealed) : null;
  const token = newToken(current.channelType, currentToken, payload);
  const profile = token ? await verifyCredentials(ports, current.channelType, token, { registrationPin: payload.registrationPin }) : null;
  const next: ServiceItem = {
    ...current,
    name: payload.name,
    ...(payload.defaultDepartmentId !== undefined ? { defaultDepartmentId: payload.defaultDepartmentId } : {}),
    ...(payload.readReceipts !== undefined ? { readReceipts: payload.readReceipts } : {}),
    ...(token ? { tokenSealed: await ports.vault.seal(token), ...sealedParts(current.channelType, token, profile, current.cloud?.verifyToken) } : {}),
    updatedAt: ports.clock().toISOString(),
  };
  const before = exclusiveClaim(ports, current.channelType, currentToken);
  const after = token ? exclusiveClaim(ports, current.channelType, token) : before;
  const moves = Boolean(after && after.id !== before?.id);
  try {
    await writeTogether(ports.table, {
      service: replaceIfUnchangedStep(next, current.updatedAt),
      claim: moves && after && claimStep(after, { accountId: session.accountId, serviceId: id }),
      release: moves && before && releaseClaimStep(before, { serviceId: id }),
    });
  } catch (error) {
    if (after && refusedBy(error, 'claim')) throw inUse(after);
    if (refusedBy(error)) throw fail.notFound();
    throw error;
  }
  if (token && isRunningStatus(current.status) && ports.channels.get(current.channelType)?.lifecycle) {
    // A running connection moves to the new token: stop the old bot, start the new one.
    await stopConnection(ports, current, false);
    return toService(await startConnection(ports, next), { admin: session.user.isAdmin });
  }
  return toService(next, { admin: session.user.isAdmin });
}

export async function deleteService(ports: Ports, session: AccountSession, id: string): Promise<void> {
  const current = await loadService(ports, session, id);
  await forgetConnection(ports, current);
  const claim = exclusiveClaim(ports, current.channelType, current.tokenSealed ? await ports.vault.open(current.tokenSealed) : null);
  await writeTogether(ports.table, {
    service: deleteExistingStep(keys.service(session.accountId, id)),
    seat: releaseSeatStep(session.accountId, 'servicesCount'),
    claim: claim && releaseClaimStep(claim, { serviceId: id }),
    hook: current.channelType === 'whatsapp_cloud' ? deleteCloudWebhookStep(id) : null,
  });
}

/**
 * A connection beyond the plan's limit in creation order may not be started (an account over its
 * limit after a downgrade keeps its oldest connections running).
 */
async function assertWithinPlan(ports: Ports, item: ServiceItem): Promise<void> {
  const account = await getAccountItem(ports.table, item.accountId);
  const limit = effectiveLimits(account?.plan).connections;
  if ((account?.servicesCount ?? 0) <= limit) return;
  if (isBeyondLimit(await accountServices(ports.table, item.accountId), item.id, limit)) throw fail.limit(errorTexts.serviceLimit);
}

/** 'Conectar com número de telefone': a new run of a connection waiting to be paired, paired by a code typed on that phone. */
export async function pairByPhoneNumber(ports: Ports, session: AccountSession, id: string, payload: ServicePairing): Promise<Service> {
  const item = await loadService(ports, session, id);
  await assertWithinPlan(ports, item);
  return toService(await startConnection(ports, item, { pairingPhone: payload.phoneNumber }), { admin: session.user.isAdmin });
}

export type ServiceAction = 'start' | 'restart' | 'shutdown' | 'logout';

/** The admin actions of the connections screen: 'Iniciar', 'Reiniciar', 'Desligar' and 'Logout'. */
export async function runServiceAction(ports: Ports, session: AccountSession, id: string, action: ServiceAction): Promise<Service> {
  const item = await loadService(ports, session, id);
  if (action === 'start' || action === 'restart') await assertWithinPlan(ports, item);
  switch (action) {
    case 'start':
      return toService(await startConnection(ports, item), { admin: session.user.isAdmin });
    case 'restart':
      await stopConnection(ports, item, false);
      return toService(await startConnection(ports, item), { admin: session.user.isAdmin });
    case 'shutdown':
      return toService(await stopConnection(ports, item, false), { admin: session.user.isAdmin });
    case 'logout':
      return toService(await stopConnection(ports, item, true), { admin: session.user.isAdmin });
  }
}
