/**
 * Starting and stopping connections (SPEC section 4: 'Iniciar', 'Desligar', 'Reiniciar',
 * 'Logout'), and checking channel credentials before they are stored. The channel work itself is
 * a ChannelControl that the connector of each type provides (connectors/registry.ts).
 */
import { errorTexts } from '#contracts/errors.ts';
import { serviceStopReasons, telegramTokenInvalidText, type ServiceStatus, type ServiceType } from '#contracts/services.ts';
import { writeServiceStatus, type ServiceItem } from '#db/services.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';

/** What a control needs to know about the connection it acts on. */
export interface ControlTarget {
  accountId: string;
  serviceId: string;
  /** The opened channel credentials (the Telegram bot token). */
  token: string | null;
  /** The run being started. */
  runId: string;
}

/** The channel refused the credentials (an invalid or revoked bot token). */
export class CredentialsRejected extends Error {
  constructor(message = 'credentials rejected') {
    super(message);
    this.name = 'CredentialsRejected';
  }
}

/** The channel could not be reached or answered with a failure that is not about the credentials. */
export class ChannelUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChannelUnreachable';
  }
}

export interface ChannelControl {
  /** Checks credentials with the channel; throws CredentialsRejected or ChannelUnreachable. */
  verify(token: string): Promise<void>;
  /**
   * Starts delivery for a run. Answers the status to record: `connected` when delivery is set up,
   * `starting` when a worker finishes the start (and writes `connected` itself).
   */
  start(ports: Ports, target: ControlTarget): Promise<ServiceStatus>;
  /** Stops delivery; `logout` also forgets what the channel kept for the connection (pending updates, offsets). */
  stop(ports: Ports, target: Omit<ControlTarget, 'runId'>, options: { logout: boolean }): Promise<void>;
}

export type ControlLookup = (type: ServiceType) => ChannelControl | undefined;

function translate(error: unknown): never {
  if (error instanceof CredentialsRejected) throw fail.invalid(errorTexts.telegramTokenInvalid, [{ path: 'token', message: telegramTokenInvalidText }]);
  if (error instanceof ChannelUnreachable) throw fail.invalid(errorTexts.channelUnreachable);
  throw error;
}

/** Checks a token before it is stored; types without a control (or a test double) have nothing to check. */
export async function verifyCredentials(controls: ControlLookup, type: ServiceType, token: string | null): Promise<void> {
  const control = controls(type);
  if (!control || !token) return;
  await control.verify(token).catch(translate);
}

async function targetOf(ports: Ports, item: ServiceItem) {
  return {
    accountId: item.accountId,
    serviceId: item.id,
    token: item.tokenSealed ? await ports.vault.open(item.tokenSealed) : null,
  };
}

function controlOf(controls: ControlLookup, item: ServiceItem): ChannelControl {
  const control = controls(item.channelType);
  if (!control) throw fail.invalid(errorTexts.channelNotStartable);
  return control;
}

/** Starts a connection: a new run, `starting`, then what the control reports. */
export async function startConnection(ports: Ports, controls: ControlLookup, item: ServiceItem): Promise<ServiceItem> {
  const control = controlOf(controls, item);
  const runId = ports.newId();
  const target = { ...(await targetOf(ports, item)), runId };
  const starting = await writeServiceStatus(ports.table, item, { status: 'starting', runId, now: ports.clock().toISOString() });
  if (!starting) throw fail.notFound();
  let status: ServiceStatus;
  try {
    status = await control.start(ports, target);
  } catch (error) {
    const reason = error instanceof CredentialsRejected ? serviceStopReasons.tokenRejected : serviceStopReasons.unreachable;
    await writeServiceStatus(ports.table, item, { status: 'disconnected', statusReason: reason, onlyRun: runId, now: ports.clock().toISOString() });
    translate(error);
  }
  if (status === 'starting') return starting;
  return (await writeServiceStatus(ports.table, item, { status, onlyRun: runId, onlyFrom: ['starting'], now: ports.clock().toISOString() })) ?? starting;
}

/** Stops a connection ('Desligar', or 'Logout' with `logout`): delivery ends and the status is disconnected. */
export async function stopConnection(ports: Ports, controls: ControlLookup, item: ServiceItem, logout: boolean): Promise<ServiceItem> {
  const control = controlOf(controls, item);
  // The status first: a polling worker stops as soon as it sees it.
  const stopped = await writeServiceStatus(ports.table, item, { status: 'disconnected', now: ports.clock().toISOString() });
  if (!stopped) throw fail.notFound();
  try {
    await control.stop(ports, await targetOf(ports, item), { logout });
  } catch (error) {
    // A revoked token cannot delete its webhook, and Telegram stops delivering to it anyway.
    if (!(error instanceof CredentialsRejected)) translate(error);
  }
  return stopped;
}

/** Before a connection is deleted: stops delivery and forgets what the channel kept, whatever fails. */
export async function forgetConnection(ports: Ports, controls: ControlLookup, item: ServiceItem): Promise<void> {
  const control = controls(item.channelType);
  if (!control) return;
  try {
    await control.stop(ports, await targetOf(ports, item), { logout: true });
  } catch (error) {
    console.warn(`Stopping connection ${item.id} before deleting it failed`, error);
  }
}
