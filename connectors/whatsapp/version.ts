/**
 * The WhatsApp Web version sockets present. Baileys 7.0.0-rc14 carries one built in
 * (`DEFAULT_CONNECTION_CONFIG.version`, node_modules/baileys/lib/Defaults/index.js); when WhatsApp
 * retires it every login and every new pairing closes with `<failure reason="405">` (Baileys #1937,
 * #2370). So the worker asks WhatsApp Web for its current revision (`fetchLatestWaWebVersion`, which
 * reads `client_revision` from web.whatsapp.com/sw.js and never throws: it answers the built-in
 * version with `isLatest: false` when it cannot), at most once per `ttlMs`, within `timeoutMs`, and
 * falls back to the built-in version; `WHATSAPP_WEB_VERSION` pins one instead. After a 405 the
 * session asks for a `refresh()`: a fetch younger than `refreshAfterMs` is reused, so a fleet of
 * sessions closed at once makes one request.
 *
 * Baileys is imported only when a version is first asked for (a worker without WhatsApp sessions
 * never loads it); the fetch is injectable, so tests never reach the network.
 */
import type { WAVersion } from 'baileys';

export type { WAVersion };

/** Where a version came from, for the logs. */
export type VersionOrigin = 'pinned' | 'fetched' | 'built-in';

export interface ResolvedVersion {
  version: WAVersion;
  origin: VersionOrigin;
}

/** What the session asks: the version for the next socket, and a fresh look after a 405. */
export interface VersionSource {
  current(): Promise<ResolvedVersion>;
  refresh(): Promise<ResolvedVersion>;
}

/** Baileys' `fetchLatestWaWebVersion` shape: it resolves with the built-in version and `isLatest: false` on any failure. */
export type LatestFetch = (options: { signal: AbortSignal }) => Promise<{ version: WAVersion; isLatest: boolean; error?: unknown }>;

export interface VersionSourceOptions {
  /** A version to use instead of fetching (`WHATSAPP_WEB_VERSION`). */
  pinned?: WAVersion | undefined;
  fetchLatest?: LatestFetch;
  builtIn?: () => Promise<WAVersion>;
  /** How long a fetched version is used before asking again. */
  ttlMs?: number;
  /** How long the built-in fallback is used before trying the fetch again. */
  failedTtlMs?: number;
  /** The most a fetch may take. */
  timeoutMs?: number;
  /** A refresh asked within this long of the last fetch reuses it. */
  refreshAfterMs?: number;
  log?: (line: string) => void;
}

const baileysFetch: LatestFetch = async (options) => (await import('baileys')).fetchLatestWaWebVersion(options);
const baileysBuiltIn = async (): Promise<WAVersion> => (await import('baileys')).DEFAULT_CONNECTION_CONFIG.version;

/** The version Baileys would use on its own (no network). */
export function builtInVersionSource(builtIn: () => Promise<WAVersion> = baileysBuiltIn): VersionSource {
  const current = async (): Promise<ResolvedVersion> => ({ version: await builtIn(), origin: 'built-in' });
  return { current, refresh: current };
}

/** The current WhatsApp Web version, fetched and cached, falling back to the built-in one; or the pinned one. */
export function waWebVersionSource(options: VersionSourceOptions = {}): VersionSource {
  const {
    pinned,
    fetchLatest = baileysFetch,
    builtIn = baileysBuiltIn,
    ttlMs = 6 * 3600_000,
    failedTtlMs = 10 * 60_000,
    timeoutMs = 5000,
    refreshAfterMs = 60_000,
    log = (line) => console.warn(line),
  } = options;
  if (pinned) {
    const fixed = Promise.resolve<ResolvedVersion>({ version: pinned, origin: 'pinned' });
    return { current: () => fixed, refresh: () => fixed };
  }
  let cached: { at: number; value: Promise<ResolvedVersion>; ttl: number } | undefined;
  const fetchNow = (): Promise<ResolvedVersion> => {
    const at = Date.now();
    const entry = { at, ttl: ttlMs, value: Promise.resolve<ResolvedVersion>({ version: [0, 0, 0], origin: 'built-in' }) };
    entry.value = (async (): Promise<ResolvedVersion> => {
      try {
        const answer = await fetchLatest({ signal: AbortSignal.timeout(timeoutMs) });
        if (answer.isLatest) return { version: answer.version, origin: 'fetched' };
        log(`[whatsapp] could not fetch the current WhatsApp Web version (${describe(answer.error)}); using Baileys' built-in one`);
      } catch (error) {
        log(`[whatsapp] could not fetch the current WhatsApp Web version (${describe(error)}); using Baileys' built-in one`);
      }
      entry.ttl = failedTtlMs;
      return { version: await builtIn(), origin: 'built-in' };
    })();
    cached = entry;
    return entry.value;
  };
  return {
    current: () => (cached && Date.now() - cached.at < cached.ttl ? cached.value : fetchNow()),
    refresh: () => (cached && Date.now() - cached.at < refreshAfterMs ? cached.value : fetchNow()),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : ((error as { message?: string } | undefined)?.message ?? String(error));
}

/** `2.3000.1043857760` (or with commas) as a version; null when it is not three whole numbers. */
export function parseWaVersion(text: string): WAVersion | null {
  const parts = text.trim().split(/[.,]\s*/);
  if (parts.length !== 3 || !parts.every((part) => /^\d+$/.test(part))) return null;
  return parts.map(Number) as WAVersion;
}
