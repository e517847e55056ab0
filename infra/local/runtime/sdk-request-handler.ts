/**
 * What the AWS SDK asks of a client's `requestHandler` besides `handle`, for the local runtime's
 * handlers that answer a client without HTTP (table-port.ts, ws-management-port.ts): no HTTP
 * configuration to update or report, nothing to destroy, and an already aborted call refused as the
 * SDK's own handlers refuse it.
 */
export abstract class InProcessRequestHandler {
  abstract readonly metadata: { handlerProtocol: string };

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}

  protected refuseAborted(options?: { abortSignal?: { aborted: boolean } }): void {
    if (options?.abortSignal?.aborted) throw Object.assign(new Error('Request aborted'), { name: 'AbortError' });
  }
}
