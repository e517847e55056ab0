/**
 * The WhatsApp Web version source: fetched once and cached, bounded in time, the built-in version
 * when the fetch fails (Baileys' `fetchLatestWaWebVersion` answers `isLatest: false` then, and never
 * throws), pinned by the environment. The fetch is a stub: no test reaches the network.
 */
import type { WAVersion } from 'baileys';
import { describe, expect, it } from 'vitest';
import { builtInVersion } from '../../tests/support/whatsapp-double.ts';
import { builtInVersionSource, type LatestFetch, parseWaVersion, waWebVersionSource } from './version.ts';

const current: WAVersion = [2, 3000, 1099999999];
const quiet = () => undefined;

function counting(answer: Awaited<ReturnType<LatestFetch>> | (() => Promise<never>)) {
  const calls: AbortSignal[] = [];
  const fetchLatest: LatestFetch = async ({ signal }) => {
    calls.push(signal);
    return typeof answer === 'function' ? answer() : answer;
  };
  return { calls, fetchLatest };
}

describe('the WhatsApp Web version source', () => {
  it('fetches the current version once and answers it from the cache until it is stale', async () => {
    const { calls, fetchLatest } = counting({ version: current, isLatest: true });
    const source = waWebVersionSource({ fetchLatest, log: quiet });
    expect(await Promise.all([source.current(), source.current()])).toEqual([
      { version: current, origin: 'fetched' },
      { version: current, origin: 'fetched' },
    ]);
    expect(await source.current()).toEqual({ version: current, origin: 'fetched' });
    expect(calls).toHaveLength(1);
  });

  it('falls back to the built-in version when WhatsApp Web cannot be read, and tries again after a while', async () => {
    const { calls, fetchLatest } = counting({ version: builtInVersion, isLatest: false, error: new Error('getaddrinfo ENOTFOUND web.whatsapp.com') });
    const logged: string[] = [];
    const source = waWebVersionSource({ fetchLatest, failedTtlMs: 30, log: (line) => void logged.push(line) });
    expect(await source.current()).toEqual({ version: builtInVersion, origin: 'built-in' });
    expect(await source.current()).toEqual({ version: builtInVersion, origin: 'built-in' });
    expect(calls).toHaveLength(1);
    expect(logged[0]).toMatch(/ENOTFOUND.*built-in/);
    await new Promise((r) => setTimeout(r, 40));
    await source.current();
    expect(calls).toHaveLength(2);
  });

  it('gives up on a fetch that does not answer within its time, with the built-in version', async () => {
    const fetchLatest: LatestFetch = ({ signal }) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('The operation was aborted due to timeout'))));
    const started = Date.now();
    const source = waWebVersionSource({ fetchLatest, timeoutMs: 50, log: quiet });
    expect(await source.current()).toEqual({ version: builtInVersion, origin: 'built-in' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a refresh right after a fetch reuses it (a fleet of 405s makes one request); later it fetches again', async () => {
    const { calls, fetchLatest } = counting({ version: current, isLatest: true });
    const source = waWebVersionSource({ fetchLatest, refreshAfterMs: 30, log: quiet });
    await source.current();
    await Promise.all([source.refresh(), source.refresh()]);
    expect(calls).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 40));
    await source.refresh();
    expect(calls).toHaveLength(2);
  });

  it('a pinned version is used as is, with no fetch', async () => {
    const { calls, fetchLatest } = counting({ version: current, isLatest: true });
    const source = waWebVersionSource({ pinned: [2, 3000, 1], fetchLatest });
    expect(await source.current()).toEqual({ version: [2, 3000, 1], origin: 'pinned' });
    expect(await source.refresh()).toEqual({ version: [2, 3000, 1], origin: 'pinned' });
    expect(calls).toHaveLength(0);
  });

  it('the built-in source answers Baileys’ own version', async () => {
    expect(await builtInVersionSource().current()).toEqual({ version: builtInVersion, origin: 'built-in' });
  });

  it('reads versions as WHATSAPP_WEB_VERSION gives them', () => {
    expect(parseWaVersion('2.3000.1043857760')).toEqual([2, 3000, 1043857760]);
    expect(parseWaVersion('[2, 3000, 1043857760]'.slice(1, -1))).toEqual([2, 3000, 1043857760]);
    expect(parseWaVersion('2.3000')).toBeNull();
    expect(parseWaVersion('2.3000.x')).toBeNull();
  });
});
