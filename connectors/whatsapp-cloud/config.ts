/**
 * How the Cloud API connector is configured, read when used (never at import), so tests and the
 * local runtime can set the environment first.
 *   WHATSAPP_CLOUD_GRAPH_URL       the Graph API root (default Meta's own); tests point it at their double
 *   WHATSAPP_CLOUD_GRAPH_VERSION   the Graph API version in every path (default v23.0, what the code was written against)
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

/** How long one Graph call may take before it counts as unreachable. */
export const graphTimeoutMs = 30_000;
