/**
 * The open conversation's contact is never put back to an older state by a refetch that was read
 * before a take (or a realtime event) and answered after it: the cached contact stays when its
 * `updatedAt` is later than the answer's; a later answer replaces it.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { contactQueryOptions } from './get-contact.ts';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

afterEach(() => vi.restoreAllMocks());

describe('the contact of the open conversation', () => {
  it('keeps a newer cached contact over a late refetch, and takes a newer answer', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const taken = contactFixture({ id: 'c1', userId: 'u-marina' }, '2026-11-28T01:00:02.000Z');
    const stale = contactFixture({ id: 'c1', userId: null }, '2026-11-28T01:00:01.000Z');
    // The take's answer is in the cache; the refetch read just before it answers now.
    client.setQueryData(contactQueryOptions('c1').queryKey, taken);
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(stale));
    await client.fetchQuery({ ...contactQueryOptions('c1'), staleTime: 0 });
    expect(client.getQueryData(contactQueryOptions('c1').queryKey)).toMatchObject({ userId: 'u-marina', updatedAt: taken.updatedAt });

    const released = contactFixture({ id: 'c1', userId: null }, '2026-11-28T01:00:03.000Z');
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(released));
    await client.fetchQuery({ ...contactQueryOptions('c1'), staleTime: 0 });
    expect(client.getQueryData(contactQueryOptions('c1').queryKey)).toMatchObject({ userId: null, updatedAt: released.updatedAt });
  });
});
