/**
 * A connection's cached state is never put back to an older one: neither by a refetch read before a
 * realtime event and answered after it, nor by the pairing request's answer arriving after the
 * code's own event (a browser test caught the code replaced by "Gerando o código…" that way).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Service } from '#contracts/services.ts';
import { serviceKeys } from '#web/api/keys.ts';
import { api } from '#web/lib/api-client.ts';
import { serviceQueryOptions } from './get-service.ts';
import { usePairByPhone } from './pair-by-phone.ts';

vi.mock('#web/lib/api-client.ts', () => ({ api: { post: vi.fn() } }));

const service = (updatedAt: string, pairingCode: string | null): Service => ({
  id: 'S1',
  name: 'Zap da Padaria',
  type: 'whatsapp',
  status: 'starting',
  connected: false,
  data: { qrCode: null, pairingCode },
  internalData: {},
  statusReason: null,
  defaultDepartmentId: null,
  readReceipts: true,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt,
});

describe('a cached connection', () => {
  it('keeps a newer state than a fetched answer, and takes a newer answer', async () => {
    const client = new QueryClient();
    const withCode = service('2026-11-26T09:00:02.000Z', 'K7PQ2MXA');
    client.setQueryData(serviceKeys.detail('S1'), withCode);
    await client.fetchQuery({ ...serviceQueryOptions('S1'), queryFn: async () => service('2026-11-26T09:00:01.000Z', null), staleTime: 0 });
    expect(client.getQueryData(serviceKeys.detail('S1'))).toBe(withCode);
    const connected = { ...service('2026-11-26T09:00:03.000Z', null), status: 'connected' as const, connected: true };
    await client.fetchQuery({ ...serviceQueryOptions('S1'), queryFn: async () => connected, staleTime: 0 });
    expect(client.getQueryData(serviceKeys.detail('S1'))).toEqual(connected);
  });

  it('keeps the code its event brought when the pairing request answers after it', async () => {
    const client = new QueryClient();
    const withCode = service('2026-11-26T09:00:02.000Z', 'K7PQ2MXA');
    client.setQueryData(serviceKeys.detail('S1'), withCode);
    vi.mocked(api.post).mockResolvedValueOnce(service('2026-11-26T09:00:01.000Z', null));
    // The mutation as the modal runs it.
    const { result } = renderHook(() => usePairByPhone('S1'), {
      wrapper: ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children),
    });
    await result.current.mutateAsync({ phone: '5511912345678' } as never);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(client.getQueryData(serviceKeys.detail('S1'))).toBe(withCode);
  });
});
