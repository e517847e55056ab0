/** Handler modules loaded by URL once per thread, as a Lambda container loads its function once. */
import type { Context } from 'aws-lambda';
import { lambdaContext } from './lambda-context.ts';

/** A Lambda handler as the local emulators call it: an event and a context, a result. */
export type Handler = (event: unknown, context: Context) => Promise<unknown>;

const loaded = new Map<string, Promise<Handler>>();

export function handlerOf(moduleUrl: string): Promise<Handler> {
  let handler = loaded.get(moduleUrl);
  if (!handler) {
    handler = import(moduleUrl).then((m: { handler: Handler }) => m.handler);
    // A module that failed to load is tried again next time.
    handler.catch(() => loaded.delete(moduleUrl));
    loaded.set(moduleUrl, handler);
  }
  return handler;
}

/** Calls the handler of the module at `moduleUrl` in this thread, as the function `functionName`. */
export async function invokeHere(moduleUrl: string, event: unknown, functionName: string): Promise<unknown> {
  const handler = await handlerOf(moduleUrl);
  return handler(event, lambdaContext(functionName));
}
