import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '#contracts/entities.ts';
import { api, ApiError, readsAnswered } from './api-client.ts';
import { sessionStore, setSession } from './auth.ts';
import { toastStore } from './notify.ts';

const user = { id: 'u1', name: 'Ana', email: 'ana@example.com', accountId: 'a1', account: { id: 'a1', name: 'Loja' } } as SessionUser;

function answer(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
const notFound = { statusCode: 404, error: 'Not Found', message: 'Not found' };

/** A fetch double answering each batch from `routes` (path with query → [status, body]) and each lone GET likewise. */
function server(routes: Record<string, [number, unknown]>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/batch') {
      const { requests } = JSON.parse(String(init!.body)) as { requests: { path: string; query?: Record<string, string> }[] };
      return answer(200, {
        responses: requests.map((r) => {
          const [status, body] = routes[r.query ? `${r.path}?${new URLSearchParams(r.query)}` : r.path] ?? [404, notFound];
          return { status, body };
        }),
      });
    }
    const [status, body] = routes[url.slice('/api'.length)] ?? [404, notFound];
    return answer(status, body);
  });
}
const calls = (fetchMock: ReturnType<typeof server>) => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

beforeEach(() => {
  localStorage.clear();
  toastStore.set([]);
  setSession({ accessToken: 'tok-1', user });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the API client: GETs asked in the same tick', () => {
  it('leave as one POST /api/batch, each caller getting its own answer or its own ApiError', async () => {
    const q = encodeURIComponent(JSON.stringify({ perPage: 50 }));
    const fetchMock = server({
      [`/contacts?query=${q}`]: [200, { data: [{ id: 'c1' }], totalCount: 1 }],
      '/tags': [200, { data: [{ id: 't1' }] }],
      '/departments/x': [404, notFound],
      '/services': [200, { data: [] }],
    });
    const [contacts, tags, department, services] = await Promise.allSettled([
      api.get(`/contacts?query=${q}`),
      api.get('/tags'),
      api.get('/departments/x'),
      api.get('/services'),
    ]);
    expect(calls(fetchMock)).toEqual(['POST /api/batch']);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(JSON.parse(String(init!.body))).toEqual({
      requests: [
        { path: '/contacts', query: { query: JSON.stringify({ perPage: 50 }) } },
        { path: '/tags' },
        { path: '/departments/x' },
        { path: '/services' },
      ],
    });
    expect((init!.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    expect(contacts).toEqual({ status: 'fulfilled', value: { data: [{ id: 'c1' }], totalCount: 1 } });
    expect(tags).toEqual({ status: 'fulfilled', value: { data: [{ id: 't1' }] } });
    expect(services).toEqual({ status: 'fulfilled', value: { data: [] } });
    expect(department.status).toBe('rejected');
    expect((department as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
    expect((department as PromiseRejectedResult).reason).toMatchObject({ status: 404, title: 'Not Found', message: 'Not found' });
  });

  it('a GET alone in its tick, the checkout session (another function) and the session check leave as themselves', async () => {
    const fetchMock = server({
      '/tags': [200, { data: [] }],
      '/payments/checkout-session': [200, { data: [] }],
      '/auth/me': [200, { user }],
      '/services': [200, { data: [] }],
    });
    await api.get('/tags');
    expect(calls(fetchMock)).toEqual(['GET /api/tags']);
    fetchMock.mockClear();
    await Promise.all([api.get('/payments/checkout-session'), api.get('/auth/me'), api.get('/tags'), api.get('/services')]);
    expect(calls(fetchMock).sort()).toEqual(['GET /api/auth/me', 'GET /api/payments/checkout-session', 'POST /api/batch']);
  });

  it('more than 8 leave as several batches; writes are never held', async () => {
    const routes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/tags/${i}`, [200, { i }] as [number, unknown]]));
    const fetchMock = server({ ...routes, '/tags': [201, { id: 'new' }] });
    const reads = Array.from({ length: 10 }, (_, i) => api.get(`/tags/${i}`));
    const write = api.post('/tags', { name: 'x' });
    expect(await Promise.all(reads)).toEqual(Array.from({ length: 10 }, (_, i) => ({ i })));
    await write;
    expect(calls(fetchMock)).toEqual(['POST /api/tags', 'POST /api/batch', 'POST /api/batch']);
    const sizes = fetchMock.mock.calls.slice(1).map(([, init]) => JSON.parse(String(init!.body)).requests.length);
    expect(sizes).toEqual([8, 2]);
  });

  it('a 401 in the batch or for the batch ends the session, as a lone 401 does', async () => {
    server({ '/tags': [200, { data: [] }], '/services': [401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }] });
    const [tags, services] = await Promise.allSettled([api.get('/tags'), api.get('/services')]);
    expect(tags.status).toBe('fulfilled');
    expect((services as PromiseRejectedResult).reason).toMatchObject({ status: 401, sessionExpired: true });
    expect(sessionStore.get()).toMatchObject({ accessToken: null });
    expect(toastStore.get().at(-1)?.title).toBe('Sessão encerrada');

    setSession({ accessToken: 'tok-2', user });
    vi.restoreAllMocks();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(answer(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' }));
    const both = await Promise.allSettled([api.get('/tags'), api.get('/services')]);
    expect(both.map((r) => (r as PromiseRejectedResult).reason?.sessionExpired)).toEqual([true, true]);
    expect(sessionStore.get()).toMatchObject({ accessToken: null });
  });

  it('a server that does not know the batch gets each GET alone', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async (input) => (String(input) === '/api/batch' ? answer(404, notFound) : answer(200, { path: String(input) })));
    expect(await Promise.all([api.get('/tags'), api.get('/services')])).toEqual([{ path: '/api/tags' }, { path: '/api/services' }]);
    expect(calls(fetchMock)).toEqual(['POST /api/batch', 'GET /api/tags', 'GET /api/services']);
  });

  it('an aborted caller is rejected with AbortError; the others get their answers', async () => {
    server({ '/tags': [200, { data: ['t'] }], '/services': [200, { data: ['s'] }], '/departments': [200, { data: ['d'] }] });
    const controller = new AbortController();
    const aborted = api.get('/tags', { signal: controller.signal });
    const others = [api.get('/services'), api.get('/departments')];
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(await Promise.all(others)).toEqual([{ data: ['s'] }, { data: ['d'] }]);
  });

  it('readsAnswered waits for the batch of this tick, asked before or after it, and for the reads asked on its answers', async () => {
    const pending: ((r: Response) => void)[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => pending.push(resolve)));
    const order: string[] = [];
    // Asked first in the tick, as the realtime link may be: the GETs asked after it still count.
    const settled = readsAnswered().then(() => order.push('answered'));
    const reads = Promise.all([api.get('/tags'), api.get('/services')]).then(async () => {
      order.push('reads');
      // A read the screen asks on the answer (a row's details), after a render.
      await new Promise((r) => setTimeout(r, 10));
      await api.get('/contacts/c1');
      order.push('details');
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    pending.shift()!(
      answer(200, {
        responses: [
          { status: 200, body: {} },
          { status: 200, body: {} },
        ],
      }),
    );
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    expect(order).toEqual(['reads']);
    pending.shift()!(answer(200, { id: 'c1' }));
    await Promise.all([settled, reads]);
    expect(order).toEqual(['reads', 'details', 'answered']);
    // Nothing in flight: at once (one tick).
    const started = Date.now();
    await readsAnswered();
    expect(Date.now() - started).toBeLessThan(50);
  });
});
