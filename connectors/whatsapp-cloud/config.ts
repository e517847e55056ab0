/**
 * How the Cloud API connector is configured, read when used (never at import), so tests and the
 * local runtime can set the environment first.
 *   WHATSAPP_CLOUD_GRAPH_URL       the Graph API root (default Meta's own); tests point it at their double
 *   WHATSAPP_CLOUD_GRAPH_VERSION   the Graph API version in every path (default v23.0, what the code was written against)
 *   WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS how long one Graph call (or media download) may take before it is aborted (default 30 s)
 */
export const defaultGraphApiRoot = 'https://graph.facebook.com';
export const defaultGraphApiVersion = 'v23.0';

export function graphApiRoot(): string {
  return (process.env.WHATSAPP_CLOUD_GRAPH_URL || defaultGraphApiRoot).replace(/\/+$/, '');
}

export function graphApiVersion(): string {
  const version = process.env.WHATSAPP_CLOUD_GRAPH_VERSION;
  return version && /^v\d+\.\d+$/.test(version) ? version : defaultGraphApiVersion;
}

const defaultGraphTimeoutMs = 30_000;

/**
 * How long one Graph call may take before it is aborted (`AbortSignal.timeout`) and counts as
 * unreachable: a call Meta never answers must not hold the send queue's lane for the function's
 * whole run. Tests shorten it to exercise a hang without waiting half a minute.
 */
export function graphTimeoutMs(): number {
  const value = Number(process.env.WHATSAPP_CLOUD_GRAPH_TIMEOUT_MS);
  return Number.isInteger(value) && value > 0 ? value : defaultGraphTimeoutMs;
}
