/**
 * Front-end smoothness with a big account: 25,000 contacts and a 5,000-message conversation,
 * served by route interception (the API's own speed is measured by `npm run bench`). Scrolls the
 * contact list through many pages, loads many message pages, and reports frame times and how
 * many rows are in the DOM. Run: `npx tsx scripts/measure/measure-inbox.ts`.
 */
import { callApi, newPage, startHarness, strongPassword, uniqueEmail } from '../../tests/e2e/browser.ts';
import { contactFixture } from '#web/testing/contact-fixture.ts';
import { messageFixture } from '#web/testing/message-fixture.ts';

const totalContacts = 25_000;
const totalMessages = 5_000;
const iso = (ms: number) => new Date(ms).toISOString();
const t0 = Date.now();

function contact(i: number) {
  return contactFixture(
    {
      id: `C${String(totalContacts - i).padStart(8, '0')}`,
      name: `Cliente ${i + 1}`,
      data: { email: `cliente${i + 1}@example.com`, phoneNumber: null, phoneCountry: null },
      idFromService: String(i),
      serviceId: 'S1',
      service: { id: 'S1', name: 'Bot', type: 'telegram' },
      lastMessage: { id: `M${i}`, text: `Mensagem ${i + 1}`, type: 'text', isFromMe: i % 3 === 0, ack: 2, timestamp: iso(t0 - i * 60_000), file: null },
      lastMessageAt: iso(t0 - i * 60_000),
      unread: i % 5,
    },
    iso(t0),
  );
}
function message(n: number) {
  return messageFixture(
    {
      id: `M${String(n).padStart(8, '0')}`,
      contactId: 'C00025000',
      serviceId: 'S1',
      text: `Mensagem número ${n} ${'texto '.repeat(n % 12)}`,
      timestamp: iso(t0 - (totalMessages - n) * 90_000),
      isFromMe: n % 2 === 0,
      ack: 3,
    },
    iso(t0),
  );
}

const h = await startHarness();
try {
  const email = uniqueEmail('medida');
  const reg = await callApi(h.runtime.url, 'POST', '/auth/register', { name: 'Medida', email, password: strongPassword });
  const acc = await callApi(h.runtime.url, 'POST', '/accounts', { name: 'Conta Grande' }, reg.body.accessToken);
  const { page, context } = await newPage(h.browser);
  // tsx keeps function names with a __name helper that the page does not have.
  await context.addInitScript('window.__name = (f) => f');
  await context.addInitScript((s) => localStorage.setItem('conversa-auth', JSON.stringify(s)), { accessToken: acc.body.accessToken, user: acc.body.user });
  await page.route('**/api/contacts?*', async (route) => {
    const q = JSON.parse(new URL(route.request().url()).searchParams.get('query')!);
    const data = Array.from({ length: q.perPage }, (_, k) => q.page * q.perPage + k)
      .filter((i) => i < totalContacts)
      .map(contact);
    await route.fulfill({ json: { data, totalCount: totalContacts } });
  });
  await page.route('**/api/contacts/C00025000', (route) => route.fulfill({ json: contact(0) }));
  await page.route('**/api/contacts/C00025000/read', (route) => route.fulfill({ status: 204 }));
  await page.route('**/api/services?*', (route) =>
    route.fulfill({
      json: {
        data: [
          {
            id: 'S1',
            name: 'Bot',
            type: 'telegram',
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
  await page.route('**/api/messages?*', async (route) => {
    const q = JSON.parse(new URL(route.request().url()).searchParams.get('query')!);
    const before = q.where.id?.lt ? Number(q.where.id.lt.slice(1)) : totalMessages + 1;
    const data = Array.from({ length: q.perPage }, (_, k) => before - 1 - k)
      .filter((n) => n >= 1)
      .map(message);
    await route.fulfill({ json: { data, totalCount: totalMessages } });
  });

  await page.goto(`${h.runtime.url}/inbox`);
  await page.getByTestId('inbox-contact').first().waitFor();
  await page.getByTestId('message').first().waitFor();

  // Frame times while scrolling the contact list through 40 pages (2,000 contacts).
  const contactRun = await page.evaluate(async () => {
    const el = document.querySelector('[data-testid="inbox-contacts-scroll"]') as HTMLElement;
    const frames: number[] = [];
    let last = performance.now();
    let running = true;
    const tick = (now: number) => {
      frames.push(now - last);
      last = now;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const start = performance.now();
    while (el.scrollTop < 88 * 2000 && performance.now() - start < 60_000) {
      el.scrollTop += 400;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
    running = false;
    frames.sort((a, b) => a - b);
    return {
      scrolledRows: Math.round(el.scrollTop / 88),
      frames: frames.length,
      p50: frames[Math.floor(frames.length * 0.5)],
      p95: frames[Math.floor(frames.length * 0.95)],
      max: frames.at(-1),
      domRows: document.querySelectorAll('[data-testid="inbox-contact"]').length,
    };
  });
  console.log('contact list', contactRun);

  // Load 100 older pages of messages (1,000 messages) with 'Carregar mais mensagens'.
  const t = Date.now();
  for (let i = 0; i < 100; i++) {
    const button = page.getByRole('button', { name: 'Carregar mais mensagens' });
    await page.getByTestId('messages-scroll').evaluate((el) => (el.scrollTop = 0));
    await button.click();
    await page.waitForFunction((n) => !document.querySelector('[aria-busy="true"]') && document.querySelectorAll('[data-message-id]').length > 0 && n >= 0, i);
  }
  const messageRun = await page.evaluate(async () => {
    const el = document.querySelector('[data-testid="messages-scroll"]') as HTMLElement;
    const frames: number[] = [];
    let last = performance.now();
    for (let y = el.scrollHeight; y > 0; y -= 500) {
      el.scrollTop = y;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    return {
      frames: frames.length,
      p50: frames[Math.floor(frames.length * 0.5)],
      p95: frames[Math.floor(frames.length * 0.95)],
      max: frames.at(-1),
      domMessages: document.querySelectorAll('[data-testid="message"]').length,
    };
  });
  console.log('messages', { loadedPagesIn: `${Date.now() - t} ms for 100 pages`, ...messageRun });
  await context.close();
} finally {
  await h.stop();
}
