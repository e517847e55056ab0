/** $default: the realtime channel is server-to-client only; client messages (keep-alive pings) are accepted and ignored. */
export async function handler() {
  return { statusCode: 200 };
}
