/** Connections: list, read, create, update and delete, with the plan's connection limit (SPEC sections 4-6). */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import { effectiveLimits } from '#contracts/plans.ts';
import type { Service, ServiceCreatePayload, ServiceUpdatePayload } from '#contracts/services.ts';
import { getAccountItem, releaseCounterStep, takeCounterStep } from '#db/accounts.ts';
import { failedConditions, replaceIfUnchanged } from '#db/conditions.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { accountServices, getServiceItem, isRunningStatus, toService, type ServiceItem } from '#db/services.ts';
import { fail } from '../errors.ts';
import { forgetConnection, startConnection, stopConnection, verifyCredentials, type ControlLookup } from './lifecycle.ts';
import { applyListQuery, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

export const serviceListRules: ListRules = {
  fields: ['id', 'name', 'type', 'status', 'connected', 'createdAt', 'updatedAt'],
  defaultOrder: [['name', 'ASC']],
};

export async function listServices(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Service>> {
  return applyListQuery((await accountServices(ports.table, session.accountId)).map(toService), q);
}

export async function loadService(ports: Ports, session: AccountSession, id: string): Promise<ServiceItem> {
  const item = await getServiceItem(ports.table, session.accountId, id);
  if (!item) throw fail.notFound();
  return item;
}

export async function getService(ports: Ports, session: AccountSession, id: string): Promise<Service> {
  return toService(await loadService(ports, session, id));
}

/** The bot id of a Telegram token (`<bot id>:<secret>`). */
export function telegramBotId(token: string): string {
  return token.split(':')[0]!.trim();
}

function claimBotStep(ports: Ports, token: string, accountId: string, serviceId: string) {
  return {
    Put: {
      TableName: ports.table.name,
      Item: { ...keys.telegramBot(telegramBotId(token)), type: entityTypes.telegramBot, accountId, serviceId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

async function releaseBotStep(ports: Ports, item: ServiceItem) {
  if (!item.tokenSealed) return [];
  const token = await ports.vault.open(item.tokenSealed);
  return [
    {
      Delete: {
        TableName: ports.table.name,
        Key: keys.telegramBot(telegramBotId(token)),
        ConditionExpression: 'attribute_not_exists(pk) OR serviceId = :id',
        ExpressionAttributeValues: { ':id': item.id },
      },
    },
  ];
}

export async function createService(ports: Ports, controls: ControlLookup, session: AccountSession, payload: ServiceCreatePayload): Promise<Service> {
  const account = await getAccountItem(ports.table, session.accountId);
  if (!account) throw fail.notFound();
  const token = payload.type === 'telegram' ? payload.token! : null;
  await verifyCredentials(controls, payload.type, token);
  const now = ports.clock().toISOString();
  const id = ports.newId();
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
    tokenHint: token ? token.slice(-4) : null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ports.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          takeCounterStep(ports.table, session.accountId, 'servicesCount', effectiveLimits(account.plan).connections),
          { Put: { TableName: ports.table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          ...(token ? [claimBotStep(ports, token, session.accountId, id)] : []),
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0)) throw fail.limit(errorTexts.serviceLimit);
    if (failed?.includes(2)) throw fail.invalid(errorTexts.telegramBotInUse, [{ path: 'token', message: 'Este bot já está em uso em outra conexão' }]);
    throw error;
  }
  return toService(item);
}

export async function updateService(ports: Ports, controls: ControlLookup, session: AccountSession, id: string, payload: ServiceUpdatePayload): Promise<Service> {
  const current = await loadService(ports, session, id);
  if (payload.type && payload.type !== current.channelType) {
    throw fail.invalid(errorTexts.invalidParams, [{ path: 'type', message: 'O tipo da conexão não pode ser alterado' }]);
  }
  const sameToken = current.tokenSealed && payload.token ? (await ports.vault.open(current.tokenSealed)) === payload.token : false;
  const token = current.channelType === 'telegram' && payload.token && !sameToken ? payload.token : null;
  if (token) await verifyCredentials(controls, current.channelType, token);
  const next: ServiceItem = {
    ...current,
    name: payload.name,
    ...(token ? { tokenSealed: await ports.vault.seal(token), tokenHint: token.slice(-4) } : {}),
    updatedAt: ports.clock().toISOString(),
  };
  const currentBot = current.tokenSealed ? telegramBotId(await ports.vault.open(current.tokenSealed)) : null;
  const botChanges = token && telegramBotId(token) !== currentBot;
  try {
    await ports.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: replaceIfUnchanged(ports.table.name, next, current.updatedAt) },
          ...(botChanges ? [claimBotStep(ports, token, session.accountId, id), ...(await releaseBotStep(ports, current))] : []),
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(1)) throw fail.invalid(errorTexts.telegramBotInUse, [{ path: 'token', message: 'Este bot já está em uso em outra conexão' }]);
    if (failed?.length) throw fail.notFound();
    throw error;
  }
  if (token && isRunningStatus(current.status) && controls(current.channelType)) {
    // A running connection moves to the new token: stop the old bot, start the new one.
    await stopConnection(ports, controls, current, false);
    return toService(await startConnection(ports, controls, next));
  }
  return toService(next);
}

export async function deleteService(ports: Ports, controls: ControlLookup, session: AccountSession, id: string): Promise<void> {
  const current = await loadService(ports, session, id);
  await forgetConnection(ports, controls, current);
  await ports.table.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: ports.table.name, Key: keys.service(session.accountId, id), ConditionExpression: 'attribute_exists(pk)' } },
        releaseCounterStep(ports.table, session.accountId, 'servicesCount'),
        ...(await releaseBotStep(ports, current)),
      ],
    }),
  );
}

export type ServiceAction = 'start' | 'restart' | 'shutdown' | 'logout';

/** The admin actions of the connections screen: 'Iniciar', 'Reiniciar', 'Desligar' and 'Logout'. */
export async function runServiceAction(ports: Ports, controls: ControlLookup, session: AccountSession, id: string, action: ServiceAction): Promise<Service> {
  const item = await loadService(ports, session, id);
  switch (action) {
    case 'start':
      return toService(await startConnection(ports, controls, item));
    case 'restart':
      await stopConnection(ports, controls, item, false);
      return toService(await startConnection(ports, controls, item));
    case 'shutdown':
      return toService(await stopConnection(ports, controls, item, false));
    case 'logout':
      return toService(await stopConnection(ports, controls, item, true));
  }
}
