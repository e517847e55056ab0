/**
 * API Gateway's WebSocket size quotas: a frame carries at most 32 KB and a message at most 128 KB
 * (a bigger message comes split into frames); a bigger frame or message closes the connection with
 * 1009 (Message too big). `ws` bounds a message (its `maxPayload`, which counts every frame of a
 * fragmented message), not a frame: this reads the header of each frame a client sends, before
 * `ws` parses it, and reports the first whose payload is over the frame quota.
 */
import type { Duplex } from 'node:stream';

/** The WebSocket frame quota (not adjustable). */
export const maxFrameBytes = 32 * 1024;
/** The message payload quota (not adjustable); `@connections` posts are bound by it too. */
export const maxMessageBytes = 128 * 1024;

/** The length of a frame's header (RFC 6455 section 5.2) from its first bytes, once two are known. */
function headerLength(header: number[]): number | undefined {
  if (header.length < 2) return undefined;
  const length7 = header[1]! & 0x7f;
  const masked = (header[1]! & 0x80) !== 0;
  return 2 + (length7 === 126 ? 2 : length7 === 127 ? 8 : 0) + (masked ? 4 : 0);
}

function payloadLength(header: number[]): number {
  const length7 = header[1]! & 0x7f;
  if (length7 < 126) return length7;
  const extended = Buffer.from(header.slice(2, length7 === 126 ? 4 : 10));
  return length7 === 126 ? extended.readUInt16BE(0) : Number(extended.readBigUInt64BE(0));
}

/**
 * Watches the frames read from `socket` (an upgraded connection that `ws` reads too; call it right
 * after `ws` took the socket, so no byte is missed) and calls `onTooBig` once, at the header of the
 * first frame whose payload is over `limit` bytes, then stops watching.
 */
export function watchFrameSizes(socket: Duplex, limit: number, onTooBig: () => void): void {
  let header: number[] = [];
  let payloadLeft = 0;
  const onData = (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length) {
      if (payloadLeft > 0) {
        const skipped = Math.min(payloadLeft, chunk.length - at);
        payloadLeft -= skipped;
        at += skipped;
        continue;
      }
      header.push(chunk[at++]!);
      if (header.length !== headerLength(header)) continue;
      payloadLeft = payloadLength(header);
      header = [];
      if (payloadLeft > limit) {
        socket.off('data', onData);
        onTooBig();
        return;
      }
    }
  };
  // Before `ws`'s own listener: the frame is refused before `ws` could deliver it.
  socket.prependListener('data', onData);
}
