/**
 * A request's body read within a cap, as API Gateway reads one (10 MB for an HTTP API, 128 KB for a
 * WebSocket API's `@connections` post): a body declared bigger by its Content-Length is refused
 * before a byte of it is read, and a body without one (chunked) is read only until it passes the
 * cap. Nothing past the cap is kept, so an oversized body costs at most the cap in memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The body, or undefined when it is over `limit` bytes; then the request is paused, nothing more of
 * it is read, and it is the caller's to answer (`refuseTooLarge`).
 */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  // Node's parser has refused a malformed or repeated Content-Length already (400).
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      chunks.length = 0;
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // The client went away before the end of its body.
    const onClose = () => onError(new Error('The request was closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** How long a refused connection stays half-open, unread, for its client to read the answer. */
const lingerMs = 2000;

/** Whether the request comes with a body (declared, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Answers a refusal without reading the rest of the request's body, and closes the connection.
 * Closing a socket that has unread bytes resets the connection, and a client still sending its
 * body may then read the reset instead of the answer; so the answer is written (and not ended,
 * which would have Node close the socket at once), the sending side is closed after it, nothing
 * more is read (the paused request stops the socket's reading once its small buffer is full), and
 * the socket is destroyed a moment later. A request without a body is simply answered.
 */
export function refuseUnread(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, text: string): void {
  const length = { 'content-length': String(Buffer.byteLength(text)) };
  if (!hasBody(req)) {
    res.writeHead(status, { ...headers, ...length });
    return void res.end(text);
  }
  const socket = req.socket;
  req.pause();
  res.writeHead(status, { ...headers, ...length, connection: 'close' });
  res.write(text, () => {
    socket.end();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  });
}

/** Answers 413 with `answer` (JSON), the rest of the body unread (`refuseUnread`). */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, answer: unknown, headers: Record<string, string> = {}): void {
  refuseUnread(req, res, 413, { 'content-type': 'application/json; charset=utf-8', ...headers }, JSON.stringify(answer));
}
