/**
 * What the channel worker's cloud process (`connectors/main.ts`) reads from its environment,
 * checked all at once at start so a task with a wrong task definition stops with every problem
 * named, instead of failing later on the first session it opens.
 */
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { defaultLivenessPort } from './liveness.ts';
import { type SendCapOptions, sendCapsFromEnv } from './send-caps.ts';
import { parseWaVersion, type WAVersion } from './whatsapp/version.ts';

export interface MainConfig {
  /** The most sessions this process holds (`WORKER_CAPACITY`); unlimited when unset. */
  capacity: number | undefined;
  /** Loopback port of the liveness answer (`LIVENESS_PORT`). */
  livenessPort: number;
  /** How long a graceful stop may take before the process gives up and exits (`STOP_GRACE_SECONDS`). */
  stopGraceSeconds: number;
  /** The worker queue's URL (`WORKER_QUEUE_URL`), when this process should consume it. */
  queueUrl: string | undefined;
  /**
   * One worker of a fleet (`WORKER_FLEET_PREFIX`: its own queue is `<prefix><worker id>.fifo`; with
   * `WORKER_DLQ_ARN`, own queues redrive there), or alone, reading the shared queue with hand-backs.
   */
  fleet: { prefix: string; deadLetterArn: string | undefined } | undefined;
  /** Daily caps per number against bans (`WHATSAPP_DAILY_SEND_CAP`, `WHATSAPP_DAILY_NEW_CHAT_CAP`). */
  sendCaps: SendCapOptions;
  /** A WhatsApp Web version every socket presents (`WHATSAPP_WEB_VERSION`, e.g. 2.3000.1043857760) instead of the current one fetched at start. */
  whatsappWebVersion: WAVersion | undefined;
}

/** Default grace: under the task definition's stop timeout (60 s), so the process logs its own give-up before ECS kills it. */
export const defaultStopGraceSeconds = 50;

export function mainConfig(env: Record<string, string | undefined>): MainConfig {
  const problems: string[] = [];
  for (const name of ['TABLE_NAME', 'BUCKET_NAME']) if (!env[name]) problems.push(`${name} is not set`);
  if (!env.DATA_KEY && !env.DATA_KEY_ARN) problems.push('neither DATA_KEY_ARN nor DATA_KEY is set (channel credentials cannot be opened)');

  const whole = (name: string, fallback: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
      return fallback;
    }
    return value;
  };
  const config: MainConfig = {
    capacity: whole('WORKER_CAPACITY', undefined, 1),
    livenessPort: whole('LIVENESS_PORT', defaultLivenessPort, 1, 65535)!,
    stopGraceSeconds: whole('STOP_GRACE_SECONDS', defaultStopGraceSeconds, 1)!,
    queueUrl: env[workerQueue.urlVariable] || undefined,
    fleet: undefined,
    sendCaps: sendCapsFromEnv(env, problems),
    whatsappWebVersion: undefined,
  };
  const prefix = env.WORKER_FLEET_PREFIX;
  if (prefix) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(prefix)) problems.push(`WORKER_FLEET_PREFIX must be 1 to 40 letters, digits, hyphens or underscores, not "${prefix}"`);
    else if (!config.queueUrl) problems.push(`WORKER_FLEET_PREFIX is set but ${workerQueue.urlVariable} is not (a fleet routes the shared queue)`);
    else config.fleet = { prefix, deadLetterArn: env.WORKER_DLQ_ARN || undefined };
  }
  const pinned = env.WHATSAPP_WEB_VERSION;
  if (pinned) {
    config.whatsappWebVersion = parseWaVersion(pinned) ?? undefined;
    if (!config.whatsappWebVersion) problems.push(`WHATSAPP_WEB_VERSION must be three whole numbers like 2.3000.1043857760, not "${pinned}"`);
  }
  if (problems.length > 0) throw new Error(`The channel worker cannot start:\n  ${problems.join('\n  ')}`);
  return config;
}
