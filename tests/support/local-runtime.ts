/**
 * Starts the local runtime as `npm start` runs it (a child process), on a free port with a fresh
 * data folder, for integration and browser tests. It stops with the test run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureRuntimeBundle, runtimeCommand } from '../../scripts/runtime-bundle.mjs';

export interface RunningRuntime {
  url: string;
  dynamoUrl: string;
  tableName: string;
  wsManagementUrl: string;
  s3Url: string;
  bucketName: string;
  outboxDir: string;
  dataDir: string;
  /** The WhatsApp socket double's control server, when the runtime runs on it (`env.WHATSAPP_DOUBLE`). */
  whatsappControlUrl?: string;
  /** SIGKILL, as a crash: nothing is flushed or closed, the data folder stays (crash tests restart on it). */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');

/** The lines a running runtime keeps of its output, for a failed test to print (`runtimeLogTails`). */
const tailLines = 200;
const tails = new Map<ChildProcess, string[]>();

/**
 * The last lines each runtime this process started and has not stopped wrote (stdout and stderr):
 * printed when a browser test fails (tests/e2e/failure-log.ts), since a page that waits in vain
 * often waits on a consumer that failed in the runtime.
 */
export function runtimeLogTails(): string[][] {
  return [...tails.values()].map((lines) => [...lines]);
}

/**
 * `env.FAKE_CHANNEL_URL` starts the runtime with the HTTP channel double in place of every channel
 * adapter (tests/support/runtime-with-double.ts); `env.WHATSAPP_DOUBLE` (any value) with WhatsApp's
 * sockets on the socket double and its control server (tests/support/runtime-with-whatsapp-double.ts);
 * otherwise it is `npm start`'s own entry. Each runs from the runtime's bundle, as `npm start` does
 * (built first if stale, scripts/runtime-bundle.mjs).
 */
export async function spawnLocalRuntime(env: Record<string, string> = {}, existingDataDir?: string): Promise<RunningRuntime> {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'conversa-test-'));
  const entry = env.FAKE_CHANNEL_URL
    ? 'tests/support/runtime-with-double'
    : env.WHATSAPP_DOUBLE
      ? 'tests/support/runtime-with-whatsapp-double'
      : 'infra/local/runtime/main';
  const command = runtimeCommand(await ensureRuntimeBundle(), entry);
  // For a diagnosis, Node options NODE_OPTIONS refuses: RUNTIME_NODE_ARGS="--cpu-prof
  // --cpu-prof-dir=/tmp/prof --heapsnapshot-signal=SIGUSR2" (a profile is written when it stops).
  const profile = process.env.RUNTIME_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...command.args], {
    cwd: root,
    env: { ...command.env, ...process.env, PORT: '0', DATA_DIR: dataDir, NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const ready = await new Promise<{ url: string; dynamoUrl: string; tableName: string; wsManagementUrl: string; s3Url: string; bucketName: string }>(
    (resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`runtime did not start:\n${log}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const m = /rodando em (http:\/\/\S+)/.exec(log);
        const d = /DynamoDB local em (http:\/\/\S+) \(tabela (\S+)\)/.exec(log);
        const w = /Gerenciamento do WebSocket em (http:\/\/\S+)/.exec(log);
        const s3 = /S3 local em (http:\/\/\S+) \(bucket (\S+)\)/.exec(log);
        if (m && d && w && s3) {
          clearTimeout(timer);
          resolveUrl({ url: m[1]!, dynamoUrl: d[1]!, tableName: d[2]!, wsManagementUrl: w[1]!, s3Url: s3[1]!, bucketName: s3[2]! });
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`runtime exited with ${code}:\n${log}`)));
    },
  );
  const tail = log.split('\n').slice(-tailLines);
  tails.set(child, tail);
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    if (tail.length > tailLines) tail.splice(0, tail.length - tailLines);
  };
  child.once('exit', () => tails.delete(child));
  // The start-up log's listeners would grow it with every line: the tail takes their place.
  child.stdout!.removeAllListeners('data').on('data', keep);
  child.stderr!.removeAllListeners('data').on('data', keep);
  if (process.env.RUNTIME_LOG) {
    child.stdout!.pipe(process.stdout);
    child.stderr!.pipe(process.stderr);
  }
  // Announced before the runtime's own lines, so it is in the log by now.
  const control = /Controle do WhatsApp de teste em (http:\/\/\S+)/.exec(log);
  return {
    ...ready,
    ...(control ? { whatsappControlUrl: control[1]! } : {}),
    outboxDir: join(dataDir, 'outbox'),
    dataDir,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      // A killed child has a signal code and no exit code: its 'exit' has been and will not come again.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // A CPU profile is written on the way out: give it time.
        await Promise.race([exited, new Promise((r) => setTimeout(r, profile.length ? 60_000 : 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!existingDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
