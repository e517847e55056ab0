import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, NetworkError } from './api-client.ts';
import { sessionStore, setSession } from './auth.ts';
import { queryClient } from './query-client.ts';
import { toastStore } from './notify.ts';
import * as realtime from './realtime.ts';
import type { SessionUser } from '#contracts/entities.ts';

const user = { id: 'u1', name: 'Ana', email: 'ana@example.com', accountId: 'a1', account: { id: 'a1', name: 'Loja' } } as SessionUser;

function answer(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  localStorage.clear();
  toastStore.set([]);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('sends the bearer token and JSON to /api', async () => {
    setSession({ accessToken: 'tok-1', user });
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(200, { ok: true }));
    await expect(api.post('/auth/switch-account', { accountId: 'a1' })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/switch-account');
    expect((init!.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    expect(init!.body).toBe('{"accountId":"a1"}');
  });

  it('throws ApiError with the server title, text and details', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      answer(400, { statusCode: 400, error: 'Bad Request', message: 'Invalid params', details: [{ path: 'email', message: 'Email inválido' }] }),
    );
    const error = await api.post('/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, title: 'Bad Request', message: 'Invalid params', details: [{ path: 'email', message: 'Email inválido' }] });
  });

  it('turns a fetch that throws into a NetworkError', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/auth/me')).rejects.toBeInstanceOf(NetworkError);
  });

  it('on a 401 with a session: logs out, clears cached data and closes the realtime connection', async () => {
    setSession({ accessToken: 'tok-2', user });
    queryClient.setQueryData(['something'], { cached: true });
    // A socket as the app shell opens it: the sign-out must close it (lib/realtime.ts listens).
    const closed: number[] = [];
    let made = 0;
    class FakeSocket {
      readyState = 1;
      onopen = null;
      onmessage = null;
      onclose = null;
      constructor() {
        made++;
      }
      close(code: number) {
        closed.push(code);
      }
    }
    vi.stubGlobal('WebSocket', FakeSocket);
    // The link asks its one-time ticket first, then opens the socket.
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(answer(200, { ticket: 'ticket-1', expiresIn: 30 }));
    realtime.connectRealtime('tok-2');
    await vi.waitFor(() => expect(made).toBe(1));
    fetchMock.mockResolvedValue(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }));
    const error = await api.get('/accounts').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, sessionExpired: true });
    expect(sessionStore.get()).toMatchObject({ accessToken: null, user: null });
    expect(localStorage.getItem('conversa-auth')).toBeNull();
    expect(queryClient.getQueryData(['something'])).toBeUndefined();
    expect(closed).toEqual([1000]);
    expect(document.documentElement.dataset.realtime).toBe('closed');
    expect(toastStore.get().at(-1)?.title).toBe('Sessão encerrada');
  });

  it('keeps a signed-out 401 (wrong password) as a normal error for the modal', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid credentials' }));
    const error = await api.post('/auth/login', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ sessionExpired: false, message: 'Invalid credentials' });
  });
});

describe("the shell's early first request", () => {
  it('answers the same GET with the same token once, without a second fetch; anything else goes out as usual', async () => {
    setSession({ accessToken: 'tok-1', user });
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.resolve(answer(200, { data: ['fresh'] })));
    window.__conversaFirstRequest = { path: '/contacts?query=x', token: 'tok-1', response: Promise.resolve(answer(200, { data: ['early'] })) };
    await expect(api.get('/contacts?query=y')).resolves.toEqual({ data: ['fresh'] });
    await expect(api.get('/contacts?query=x')).resolves.toEqual({ data: ['early'] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(api.get('/contacts?query=x')).resolves.toEqual({ data: ['fresh'] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not taken with another token (the session changed meanwhile), and a 401 it brings signs out as any other', async () => {
    setSession({ accessToken: 'tok-2', user });
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(200, { data: [] }));
    window.__conversaFirstRequest = { path: '/contacts?query=x', token: 'tok-1', response: Promise.resolve(answer(200, { data: ['early'] })) };
    await expect(api.get('/contacts?query=x')).resolves.toEqual({ data: [] });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    window.__conversaFirstRequest = { path: '/contacts?query=x', token: 'tok-2', response: Promise.resolve(answer(401, { message: 'expired' })) };
    const error = await api.get('/contacts?query=x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).sessionExpired).toBe(true);
    expect(sessionStore.get().accessToken).toBeNull();
  });
});
