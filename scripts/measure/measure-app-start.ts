import { serveMeasuredBuild } from './measure-dist.ts';
import { callApi, newPage, startHarness, strongPassword, uniqueEmail } from '../../tests/e2e/browser.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { summariseProfile, type CpuProfile } from './cpu-profile-summary.ts';

const slowdown = Number(process.env.CPU_SLOWDOWN ?? 4);
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

function contact(i: number) {
  const at = iso(t0 - i * 600_000);
  return contactFixture(
    {
      id: `C${String(1000 - i).padStart(8, '0')}`,
      name: `Cliente ${i + 1}`,
      data: { email: `cliente${i + 1}@example.com`, phoneNumber: `55119${String(80000000 + i)}`, phoneCountry: 'BR' },
      idFromService: String(i),
      serviceId: 'S1',
      service: { id: 'S1', name: 'Loja', type: 'whatsapp' },
      lastMessage: {
        id: `M${i}`,
        text: `Mensagem ${i}: olá, tudo bem? Gostaria de saber do meu pedido.`,
        type: 'text',
        isFromMe: i % 2 === 0,
        ack: 2,
        timestamp: at,
        file: null,
      },
      lastMessageAt: at,
      unread: i % 3,
      createdAt: iso(t0 - 86_400_000),
    },
    at,
  );
}

const h = await startHarness();
try {
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Medida', email: uniqueEmail('inicio'), password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Início' }, reg.body.accessToken);
  const contacts = Array.from({ length: 30 }, (_, i) => contact(i));
  for (const path of ['/inbox', '/contacts']) {
    const { page, context, errors } = await newPage(h.browser, { width: 412, height: 823 });
    await context.addInitScript('window.__name = (f) => f');
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), { accessToken: acc.body.accessToken, user: acc.body.user });
    await context.addInitScript(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(Math.round(e.duration));
      }).observe({ type: 'longtask', buffered: true });
    });
    await serveMeasuredBuild(page, (url) => url.pathname === path);
    await page.route('**/api/auth/me', async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.fulfill({ json: { user: acc.body.user } });
    });
    await page.route('**/api/contacts?*', (route) => route.fulfill({ json: { data: path === '/inbox' ? contacts : contacts.slice(0, 10), totalCount: 1000 } }));
    await page.routeWebSocket(/\/ws\?/, (ws) => ws.close());
    let scripts = 0;
    let scriptBytes = 0;
    let listAt = Number.NaN;
    page.on('request', (request) => {
      if (Number.isNaN(listAt) && request.url().includes('/api/contacts?')) listAt = Date.now();
    });
    page.on('response', async (response) => {
      if (!new URL(response.url()).pathname.endsWith('.js')) return;
      scripts++;
      scriptBytes += (await response.body().catch(() => Buffer.alloc(0))).length;
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    const started = Date.now();
    await page.goto(`${h.runtime.url}${path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const navStart = await page.evaluate(() => performance.timeOrigin);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const summary = summariseProfile(profile);
    const scripting = summary.total;
    const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    console.log(
      `${path} at ${slowdown}x (wall ${Date.now() - started} ms): ${scripts} scripts, ${(scriptBytes / 1000).toFixed(1)} kB uncompressed; first contentful paint at ${fcp.toFixed(0)} ms, first list request at ${(listAt - navStart).toFixed(0)} ms; scripting ${(scripting / 1000).toFixed(0)} ms; long tasks ${JSON.stringify(long)}`,
    );
    console.log(`by file:\n${summary.byFile(8).join('\n')}\nby function:\n${summary.byFunction(25).join('\n')}`);
    if (errors.length) console.error(errors);
    await context.close();
  }
} finally {
  await h.stop();
}
