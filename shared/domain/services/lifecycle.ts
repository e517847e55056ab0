/**
 * Starting and stopping connections (docs/product.md#entities-and-states: 'Iniciar', 'Desligar', 'Reiniciar',
 * 'Logout'), and checking channel credentials before they are stored. The channel work itself is
 * the adapter's (`ports.channels`); a channel without a lifecycle cannot be started.
 */
import { errorTexts } from '#contracts/errors.ts';
import { serviceStopReasons, telegramTokenInvalidText, type ServiceStatus, type ServiceType } from '#contracts/services.ts';
import { writeServiceStatus, type ServiceItem } from '#db/services.ts';
import {
  ChannelUnreachable,
  CredentialsRejected,
  type ChannelConnection,
  type ChannelLifecycle,
  type ChannelProfile,
  type VerifyOptions,
} from '../channels/port.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

function translate(error: unknown): never {
  if (error instanceof CredentialsRejected) {
    const field = error.details.field;
    if (field) throw fail.invalid(field.error, [{ path: field.path, message: field.message }]);
    throw fail.invalid(errorTexts.telegramTokenInvalid, [{ path: 'token', message: telegramTokenInvalidText }]);
  }
  if (error instanceof ChannelUnreachable) throw fail.invalid(errorTexts.channelUnreachable);
  throw error;
}

/**
 * Checks credentials before they are stored; a channel that takes none has nothing to check.
 * Answers what the channel told about the account (the Cloud API's number), if anything.
 */
export async function verifyCredentials(ports: Ports, type: ServiceType, token: string | null, options: VerifyOptions = {}): Promise<ChannelProfile | null> {
  const credentials = ports.channels.get(type)?.credentials;
  if (!credentials || !token) return null;
  return (await credentials.verify(token, options).catch(translate)) ?? null;
}

/** The connection as its adapter sees it, credentials opened. */
export async function connectionOf(ports: Ports, item: ServiceItem): Promise<ChannelConnection> {
  return {
    accountId: item.accountId,
    serviceId: item.id,
    type: item.channelType,
    token: item.tokenSealed ? await ports.vault.open(item.tokenSealed) : null,
  };
}

function lifecycleOf(ports: Ports, item: ServiceItem): ChannelLifecycle {
  const lifecycle = ports.channels.get(item.channelType)?.lifecycle;
  if (!lifecycle) throw fail.invalid(errorTexts.channelNotStartable);
  return lifecycle;
}

const now = (ports: Ports) => ports.clock().toISOString();

/** The statuses from which a run may pair by phone number: the connection is waiting to be paired. */
const pairable: ServiceStatus[] = ['starting', 'isOnQrCode'];

/**
 * Starts a connection: a new run, `starting`, then what the adapter reports. With `pairingPhone`
 * the run pairs by a code typed on that phone instead of a QR; only a connection waiting to be
 * paired (starting, or showing a QR) may, and only on a channel that pairs so.
 */
export async function startConnection(ports: Ports, item: ServiceItem, options: { pairingPhone?: string } = {}): Promise<ServiceItem> {
  const lifecycle = lifecycleOf(ports, item);
  const pairingPhone = options.pairingPhone ?? null;
  if (pairingPhone && !ports.channels.get(item.channelType)?.sessions?.pairsByPhoneNumber) throw fail.invalid(errorTexts.cannotPairByPhone);
  const runId = ports.newId();
  const run = { ...(await connectionOf(ports, item)), runId, pairingPhone };
  const starting = await writeServiceStatus(ports.table, item, {
    status: 'starting',
    runId,
    pairingPhone,
    qrCode: null,
    pairingCode: null,
    stoppedByLimit: false,
    ...(pairingPhone ? { onlyFrom: pairable } : {}),
    now: now(ports),
  });
  if (!starting) throw pairingPhone ? fail.invalid(errorTexts.notWaitingForPairing) : fail.notFound();
  let status: ServiceStatus;
  try {
    status = await lifecycle.start(ports, run);
  } catch (error) {
    const reason = error instanceof CredentialsRejected ? (error.details.stopReason ?? serviceStopReasons.tokenRejected) : serviceStopReasons.unreachable;
    await writeServiceStatus(ports.table, item, { status: 'disconnected', statusReason: reason, onlyRun: runId, now: now(ports) });
    translate(error);
  }
  if (status === 'starting') return starting;
  return (await writeServiceStatus(ports.table, item, { status, onlyRun: runId, onlyFrom: ['starting'], now: now(ports) })) ?? starting;
}

/**
 * Stops a connection ('Desligar', or 'Logout' with `logout`): delivery ends and the status is
 * disconnected. `byLimit`: the plan's limit stops it (marked so it starts again on an upgrade, with
 * a reason the connections screen shows).
 */
export async function stopConnection(ports: Ports, item: ServiceItem, logout: boolean, options: { byLimit?: boolean } = {}): Promise<ServiceItem> {
  const lifecycle = lifecycleOf(ports, item);
  const stop = async () => {
    try {
      await lifecycle.stop(ports, await connectionOf(ports, item), { logout });
    } catch (error) {
      // A revoked token cannot delete its webhook, and Telegram stops delivering to it anyway.
      if (!(error instanceof CredentialsRejected)) translate(error);
    }
  };
  // A channel reached only through its session (WhatsApp) logs out there: the logout is queued for
  // the worker before the status changes, so the worker holding the session unpairs through it
  // before it sees the stop (commands of one connection run in the order they were queued).
  const throughSession = logout && Boolean(ports.channels.get(item.channelType)?.sessions?.sendsInSession);
  if (throughSession) await stop();
  // Otherwise the status first: a worker-held session stops as soon as it sees it.
  const stopped = await writeServiceStatus(ports.table, item, {
    status: 'disconnected',
    now: now(ports),
    ...(options.byLimit ? { stoppedByLimit: true, statusReason: serviceStopReasons.planLimit } : {}),
  });
  if (!stopped) throw fail.notFound();
  if (!throughSession) await stop();
  return stopped;
}

/** Before a connection is deleted: stops delivery and forgets what the channel kept, whatever fails. */
export async function forgetConnection(ports: Ports, item: ServiceItem): Promise<void> {
  const lifecycle = ports.channels.get(item.channelType)?.lifecycle;
  if (!lifecycle) return;
  try {
    await lifecycle.stop(ports, await connectionOf(ports, item), { logout: true });
  } catch (error) {
    console.warn(`Stopping connection ${item.id} before deleting it failed`, error);
  }
}
