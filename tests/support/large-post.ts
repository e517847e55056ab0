/**
 * Posting large bodies to a local gateway, for the payload-limit tests: `total` bytes, 64 KB at a
 * time as the socket takes them, declared with a Content-Length or chunked; with `headersOnly`, the
 * headers alone, waiting for the answer before writing any body. Settles once the answer is read
 * or the connection is gone, saying how much of the body the client had handed to its socket.
 */
import { type IncomingHttpHeaders, request } from 'node:http';

export interface LargePostOutcome {
  status?: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Body bytes the client had handed to its socket when the answer or the close came. */
  written: number;
}

export function postLarge(
  url: string,
  total: number,
  { declared, headersOnly = false, contentType = 'application/json' }: { declared: boolean; headersOnly?: boolean; contentType?: string },
): Promise<LargePostOutcome> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    const outcome: LargePostOutcome = { headers: {}, body: '', written: 0 };
    let done = false;
    const finish = () => {
      if (!done) resolve(outcome);
      done = true;
    };
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType, ...(declared ? { 'content-length': String(total) } : {}) } });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (outcome.body += text));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', finish);
    req.on('close', () => {
      // An answer being read finishes on its own 'end'.
      if (outcome.status === undefined) finish();
    });
    const pump = () => {
      while (!done && !req.destroyed && outcome.written < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - outcome.written));
        outcome.written += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      if (!done && !req.destroyed) req.end();
    };
    req.flushHeaders();
    if (!headersOnly) pump();
  });
}
