/**
 * Where the main thread goes as /inbox and /contacts load on a phone: 390 px wide, the CPU slowed
 * 4x (CPU_SLOWDOWN), signed in, with bench:web's shape of data served by route interception (30
 * conversations, 1,000 contacts). Prints, per screen, the long tasks, the CPU profile's self time by
 * file and by function, and how many times each React component rendered until the screen settled
 * (counted through React's devtools hook, which production builds call too). With a build made by
 * `vite build --minify false` in MEASURE_DIST the functions and components keep their names.
 * Run: `npx tsx scripts/measure/measure-screens.ts` (SCREENS=/contacts for one; PROFILE_OUT=/tmp/p writes
 * each screen's CPU profile as /tmp/p_inbox.cpuprofile, for Chrome's performance panel).
 */
import { writeFileSync } from 'node:fs';
import { serveMeasuredBuild } from './measure-dist.ts';
import { callApi, newPage, startHarness, strongPassword, uniqueEmail } from '../../tests/e2e/browser.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';
import { summariseProfile, type CpuProfile } from './cpu-profile-summary.ts';

const conversations = 30;
const totalContacts = 1_000;
const slowdown = Number(process.env.CPU_SLOWDOWN ?? 4);
const screens = (process.env.SCREENS ?? '/inbox,/contacts').split(',');
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const contactId = (i: number) => `C${String(10_000 - i).padStart(8, '0')}`;
const lines = [
  'Bom dia! Gostaria de saber o status do meu pedido, por favor.',
  'Olá! Seu pedido já foi enviado e chega amanhã até as 18h.',
  'Perfeito, obrigado!',
];

function message(contact: number, n: number, at: number) {
  return messageFixture(
    {
      id: `M${String(at).padStart(14, '0')}${String(n).padStart(4, '0')}`,
      contactId: contactId(contact),
      serviceId: 'S1',
      text: lines[(n + contact) % lines.length]!,
      isFromMe: (n + contact) % 2 === 1,
      ack: 2,
    },
    iso(at),
  );
}
const contacts = Array.from({ length: totalContacts }, (_, i) => {
  const last = i < conversations ? message(i, 23, t0 - (i + 1) * 3_600_000) : null;
  return contactFixture(
    {
      id: contactId(i),
      name: `Cliente ${i + 1}`,
      data: { email: `cliente${i + 1}@exemplo.com.br`, phoneNumber: `55119${String(80_000_000 + i * 7919).slice(-8)}`, phoneCountry: 'BR' },
      idFromService: String(i),
      serviceId: 'S1',
      service: { id: 'S1', name: 'WhatsApp Loja', type: 'whatsapp' },
      lastMessage: last && { id: last.id, text: last.text, type: 'text', isFromMe: last.isFromMe, ack: 2, timestamp: last.timestamp, file: null },
      lastMessageAt: last?.timestamp ?? null,
      unread: last && !last.isFromMe ? 2 : 0,
    },
    iso(t0 - 60_000),
  );
});

/** Counts each function component's renders per commit (React calls the devtools hook in production builds). */
function countRenders() {
  const w = window as unknown as { __renders: Record<string, number>; __commits: number; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
  w.__renders = {};
  w.__commits = 0;
  type Fiber = { tag: number; type: unknown; flags: number; child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null };
  const nameOf = (type: unknown): string => {
    if (typeof type === 'function') return (type as { displayName?: string; name?: string }).displayName || (type as { name: string }).name || '(anonymous)';
    if (type && typeof type === 'object') {
      const t = type as { displayName?: string; render?: unknown; type?: unknown };
      return t.displayName || nameOf(t.render ?? t.type);
    }
    return '(anonymous)';
  };
  // Function (0), forwardRef (11), memo (14) and simple memo (15) components; PerformedWork is flag 1.
  const visit = (fiber: Fiber | null) => {
    for (let f = fiber; f; f = f.sibling) {
      const prev = f.alternate;
      if ([0, 11, 15].includes(f.tag) && (!prev || f.flags & 1)) {
        const name = nameOf(f.type);
        w.__renders[name] = (w.__renders[name] ?? 0) + 1;
      }
      if (!prev || f.child !== prev.child) visit(f.child);
    }
  };
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      w.__commits++;
      visit(root.current);
    },
  };
}

const h = await startHarness();
try {
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Medida', email: uniqueEmail('telas'), password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Loja Medida' }, reg.body.accessToken);
  for (const screen of screens) {
    const { page, context, errors } = await newPage(h.browser, { width: 390, height: 844 });
    await context.addInitScript('window.__name = (f) => f');
    await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), { accessToken: acc.body.accessToken, user: acc.body.user });
    await context.addInitScript(countRenders);
    await context.addInitScript(() => {
      const w = window as unknown as { __long: number[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(Math.round(e.duration));
      }).observe({ type: 'longtask', buffered: true });
    });
    await serveMeasuredBuild(page, (url) => url.pathname.startsWith('/inbox') || url.pathname.startsWith('/contacts'));
    await page.route('**/api/contacts?*', (route) => {
      const q = JSON.parse(new URL(route.request().url()).searchParams.get('query')!);
      if ((q.include as string[]).includes('lastMessage')) {
        const list = contacts.slice(0, q.perPage);
        return route.fulfill({ json: { data: list, totalCount: totalContacts, nextCursor: list.at(-1)!.id } });
      }
      const from = (q.page ?? 0) * (q.perPage ?? 10);
      return route.fulfill({ json: { data: contacts.slice(from, from + (q.perPage ?? 10)), totalCount: totalContacts } });
    });
    await page.route(/\/api\/contacts\/C\d+$/, (route) => route.fulfill({ json: contacts.find((c) => route.request().url().endsWith(c.id)) }));
    await page.route(/\/api\/contacts\/C\d+\/read$/, (route) => route.fulfill({ status: 204 }));
    await page.route('**/api/messages?*', (route) => {
      const q = JSON.parse(new URL(route.request().url()).searchParams.get('query')!);
      const i = 10_000 - Number((q.where.contactId as string).slice(1));
      const data = Array.from({ length: Math.min(q.perPage, 24) }, (_, k) => message(i, 23 - k, t0 - (i + 1) * 3_600_000 - k * 60_000));
      return route.fulfill({ json: { data, totalCount: 24 } });
    });

    // The realtime socket opens as it does against the runtime (its first open refetches what is shown).
    await page.routeWebSocket(/\/ws\?token=/, () => undefined);
    const requests: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) requests.push(url.pathname);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${h.runtime.url}${screen}`);
    await page
      .getByTestId(screen === '/inbox' ? 'inbox-contact' : 'contact-row')
      .first()
      .waitFor()
      .catch((error: unknown) => {
        throw new Error(`${screen} did not show (${errors.join('; ')}): ${error}`);
      });
    await page.waitForTimeout(3000);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}${screen.replaceAll('/', '_')}.cpuprofile`, JSON.stringify(profile));
    const summary = summariseProfile(profile);
    const measured = await page.evaluate(() => {
      const w = window as unknown as { __renders: Record<string, number>; __commits: number; __long: number[] };
      return { renders: w.__renders, commits: w.__commits, long: w.__long };
    });
    const renders = Object.entries(measured.renders).sort((a, b) => b[1] - a[1]);
    console.log(
      `\n== ${screen} at 390 px, ${slowdown}x: ${(summary.total / 1000).toFixed(0)} ms of scripting; long tasks (ms) ${JSON.stringify(measured.long)}`,
    );
    console.log(`by file:\n${summary.byFile(8).join('\n')}`);
    console.log(`by function:\n${summary.byFunction(25).join('\n')}`);
    console.log(
      `${measured.commits} React commits, ${renders.reduce((n, [, c]) => n + c, 0)} component renders; most rendered:\n${renders
        .slice(0, 30)
        .map(([name, n]) => `${String(n).padStart(6)}  ${name}`)
        .join('\n')}`,
    );
    console.log(`${requests.length} API requests: ${requests.join(' ')}`);
    if (errors.length) console.error(errors);
    await context.close();
  }
} finally {
  await h.stop();
}
