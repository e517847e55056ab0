import { serveMeasuredBuild } from './measure-dist.ts';
import { callApi, newPage, startHarness, strongPassword, uniqueEmail } from '../../tests/e2e/browser.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';
import { summariseProfile, type CpuProfile } from './cpu-profile-summary.ts';

const conversations = 30;
const perSecond = Number(process.env.BURST_PER_SECOND ?? 50);
const seconds = 5;
const slowdown = Number(process.env.CPU_SLOWDOWN ?? 4);
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const contactId = (i: number) => `C${String(1000 - i).padStart(8, '0')}`;

function message(contact: number, n: number, at: number) {
  return messageFixture(
    {
      id: `M${String(at).padStart(14, '0')}${String(n).padStart(4, '0')}`,
      contactId: contactId(contact),
      serviceId: 'S1',
      text: `Mensagem ${n}: ${'olá, tudo bem? '.repeat(1 + (n % 4))}`,
      isFromMe: n % 3 === 0,
      ack: 2,
    },
    iso(at),
  );
}
function contact(i: number, last = message(i, 0, t0 - i * 600_000), unread = i % 4) {
  return contactFixture(
    {
      id: contactId(i),
      name: `Cliente ${i + 1}`,
      data: { email: `cliente${i + 1}@example.com`, phoneNumber: `55119${String(80000000 + i)}`, phoneCountry: 'BR' },
      idFromService: String(i),
      serviceId: 'S1',
      service: { id: 'S1', name: 'Loja', type: 'whatsapp' },
      lastMessage: { id: last.id, text: last.text, type: 'text', isFromMe: last.isFromMe, ack: 2, timestamp: last.timestamp, file: null },
      lastMessageAt: last.timestamp,
      unread,
      createdAt: iso(t0 - 86_400_000),
    },
    last.timestamp,
  );
}

const h = await startHarness();
try {
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Medida', email: uniqueEmail('rajada'), password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Rajada' }, reg.body.accessToken);
  const { page, context, errors } = await newPage(h.browser, { width: 1280, height: 800 });
  page.on('close', () => errors.length && console.error(errors));
  await context.addInitScript('window.__name = (f) => f');
  await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), { accessToken: acc.body.accessToken, user: acc.body.user });
  await context.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; duration: number }[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  await serveMeasuredBuild(page, (url) => url.pathname.startsWith('/inbox'));
  const contacts = Array.from({ length: conversations }, (_, i) => contact(i));
  await page.route('**/api/contacts?*', (route) => route.fulfill({ json: { data: contacts, totalCount: conversations } }));
  await page.route(/\/api\/contacts\/C\d+$/, (route) => route.fulfill({ json: contacts.find((c) => route.request().url().endsWith(c.id)) }));
  await page.route(/\/api\/contacts\/C\d+\/read$/, (route) => route.fulfill({ status: 204 }));
  await page.route('**/api/services?*', (route) =>
    route.fulfill({
      json: {
        data: [
          {
            id: 'S1',
            name: 'Loja',
            type: 'whatsapp',
            status: 'connected',
            connected: true,
            data: { qrCode: null },
            internalData: {},
            statusReason: null,
            createdAt: iso(t0),
            updatedAt: iso(t0),
          },
        ],
        totalCount: 1,
      },
    }),
  );
  await page.route('**/api/messages?*', (route) => {
    const q = JSON.parse(new URL(route.request().url()).searchParams.get('query')!);
    const id = q.where.contactId as string;
    const i = 1000 - Number(id.slice(1));
    const data = Array.from({ length: q.perPage }, (_, k) => message(i, 24 - k, t0 - i * 600_000 - k * 60_000));
    return route.fulfill({ json: { data, totalCount: 24 } });
  });
  let server: { send(message: string): void } | undefined;
  await page.routeWebSocket(/\/ws\?token=/, (ws) => {
    server = ws;
  });

  /** Stops the CPU profile and prints where the scripting went, by file and by function. */
  const report = async (label: string) => {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const summary = summariseProfile(profile);
    console.log(`${label}: scripting by file:\n${summary.byFile(10).join('\n')}`);
    console.log(`${label}: by function:\n${summary.byFunction(20).join('\n')}`);
  };
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await page.goto(`${h.runtime.url}/inbox`);
  await page
    .getByTestId('inbox-contact')
    .first()
    .waitFor()
    .catch((error: unknown) => {
      throw new Error(`the inbox did not show (${errors.join('; ')}): ${error}`);
    });
  await page.getByTestId('message').first().waitFor();
  await page.waitForTimeout(1500);
  await report('load');
  const loadLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.map((e) => Math.round(e.duration)));
  console.log(`load at ${slowdown}x: long tasks (ms) ${JSON.stringify(loadLong)}`);

  // The burst: the open conversation (contact 0) gets one message in five, the others the rest.
  if (!server) throw new Error('the app opened no realtime socket');
  const socket = server as { send(message: string): void };
  const before = await page.evaluate(() => (window as unknown as { __long: unknown[] }).__long.length);
  await cdp.send('Profiler.start');
  const total = perSecond * seconds;
  let at = t0 + 1000;
  for (let n = 0; n < total; n++) {
    const i = n % 5 === 0 ? 0 : 1 + (n % (conversations - 1));
    at += 10;
    const m = { ...message(i, 100 + n, at), isFromMe: false };
    socket.send(JSON.stringify({ event: 'message.CREATED', data: m }));
    socket.send(JSON.stringify({ event: 'contact.UPDATED', data: contact(i, m, 1 + (n % 7)) }));
    await new Promise((r) => setTimeout(r, 1000 / perSecond));
  }
  await page.waitForTimeout(1500);
  await report('burst');
  const burst = await page.evaluate(
    (skip) => (window as unknown as { __long: { duration: number }[] }).__long.slice(skip).map((e) => Math.round(e.duration)),
    before,
  );
  const shown = await page.getByTestId('message').count();
  const topRow = await page.getByTestId('inbox-contact').first().textContent();
  console.log(
    `burst of ${perSecond} messages/s for ${seconds} s at ${slowdown}x: ${burst.length} long task(s), longest ${Math.max(0, ...burst)} ms ${JSON.stringify(burst)}; ${shown} message rows in the DOM; top of the list: ${topRow}`,
  );
  // The line bench:web reads (scripts/bench-web.ts).
  console.log(`BURST ${JSON.stringify({ perSecond, seconds, slowdown, longTasks: burst.length, longestMs: Math.max(0, ...burst) })}`);
  await context.close();
} finally {
  await h.stop();
}
