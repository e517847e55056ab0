/**
 * The handler thread's module (handler-thread.ts): runs the handler modules the main thread names,
 * with the functions' ports built in this thread, their table calls on this thread's own line to
 * the DynamoDB thread.
 */
// First: Powertools reads its settings when the handler modules' observability is first loaded.
import './telemetry-env.ts';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { defaultPorts } from '../../../functions/lib/ports.ts';
import { readContactSnapshot } from '../../../shared/domain/contacts/contact-snapshot.ts';
import { handlerOf, invokeHere } from './handler-modules.ts';
import type { ToHandlerThread, Outcome } from './handler-thread.ts';
import { TablePort } from './table-port.ts';

const { tablePort, niceness, modules } = workerData as { tablePort: MessagePort; niceness: number; modules: string[] };

/**
 * The functions' ports, built once the main thread has set the environment they read (it starts
 * this thread first), with their table calls on this thread's line.
 */
let ports: ReturnType<typeof defaultPorts> | undefined;
function portsOfThread() {
  if (!ports) {
    ports = defaultPorts();
    ports.table.doc.config.requestHandler = new TablePort(tablePort);
  }
  return ports;
}

/**
 * A first table read and a first storage read, of things that do not exist: the SDK's paths (and
 * the HTTP client the storage's uses) are loaded and compiled before the first request needs them,
 * as a Lambda function primes its clients during its init. A failure here only logs.
 */
async function prime(): Promise<void> {
  const { table, storage } = portsOfThread();
  await table.doc.send(new GetCommand({ TableName: table.name, Key: { pk: 'PRIME', sk: 'PRIME' } }));
  await readContactSnapshot(storage, 'PRIME');
}

/**
 * This thread's CPU priority below the main thread's, so a send's hops there get a core as soon as
 * they are ready, whatever the reads here want. Linux sets it per thread, by the thread's own id
 * (`/proc/thread-self` is `<pid>/task/<tid>`); elsewhere the thread keeps the process's priority.
 */
function yieldToMainThread(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').at(-1)), niceness);
  } catch {
    // No per-thread priority here: the reads share the CPU evenly with the rest.
  }
}

async function invoke({ id, moduleUrl, event, functionName }: Extract<ToHandlerThread, { type: 'invoke' }>): Promise<void> {
  let outcome: Outcome;
  try {
    portsOfThread();
    outcome = { type: 'result', id, result: await invokeHere(moduleUrl, event, functionName) };
  } catch (error) {
    const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
    outcome = { type: 'error', id, error: { name, message, stack } };
  }
  try {
    parentPort!.postMessage(outcome);
  } catch (error) {
    // A result that cannot be cloned fails its call, not the thread.
    parentPort!.postMessage({ type: 'error', id, error: { name: 'DataCloneError', message: (error as Error).message } } satisfies Outcome);
  }
}

// The handlers this thread will run, loaded as it starts (a call for one still loading waits for
// it; one that fails to load fails its calls and is tried again then); once they are, the thread
// takes its lower priority.
const loading = Promise.all(modules.map((url) => handlerOf(url).catch((error) => console.error('[handler-thread]', url, error)))).then(() => {
  yieldToMainThread();
});

parentPort!.on('message', (message: ToHandlerThread) => {
  if (message.type === 'invoke') void invoke(message);
  else if (message.type === 'environmentSet') {
    void loading.then(prime).catch((error) => console.error('[handler-thread] priming failed', error));
  }
});
parentPort!.postMessage({ type: 'ready' });
