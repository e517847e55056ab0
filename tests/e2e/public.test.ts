import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, newPage, startHarness, type Harness } from './browser.ts';

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  base = h.runtime.url;
});
afterAll(async () => {
  await h?.stop();
});

const publicPages = [
  { path: '/', heading: /WhatsApp e Telegram da sua empresa/ },
  { path: '/about', heading: /Atendimento bom não deveria ser privilégio/ },
  { path: '/contact', heading: 'Fale com a gente' },
  { path: '/terms', heading: 'Termos de uso' },
  { path: '/privacy', heading: 'Política de privacidade' },
  { path: '/cookies', heading: 'Política de cookies' },
  { path: '/demo', heading: 'Veja o Conversa em ação' },
  { path: '/login', heading: 'Entrar na sua conta' },
  { path: '/register', heading: 'Criar uma nova conta' },
  { path: '/forgot-password', heading: 'Recuperar senha' },
  { path: '/reset-password?verifyCode=123456&email=a%40b.com', heading: 'Redefinir senha' },
  { path: '/verify-email?userId=01ABC', heading: 'Verificar e-mail' },
];

describe('public and sign-in pages', () => {
  for (const dark of [false, true]) {
    it(`render with no serious accessibility problem, meta tags and no console error (${dark ? 'dark' : 'light'})`, async () => {
      const { page, context, errors } = await newPage(h.browser, { dark, width: dark ? 390 : 1280 });
      const apiCalls: string[] = [];
      page.on('request', (r) => r.url().includes('/api/') && apiCalls.push(r.url()));
      for (const p of publicPages) {
        await page.goto(`${base}${p.path}`);
        await page.getByRole('heading', { level: 1, name: p.heading }).waitFor();
        await page.waitForFunction(() => document.querySelector('meta[property="og:url"]'));
        const meta = await page.evaluate(() => ({
          title: document.title,
          description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
          ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '',
          lang: document.documentElement.lang,
        }));
        expect(meta.title, p.path).toContain('Conversa');
        expect(meta.description.length, p.path).toBeGreaterThan(40);
        expect(meta.ogTitle, p.path).toBe(meta.title);
        expect(meta.lang).toBe('pt-BR');
        await expectAccessible(page, `${p.path} (${dark ? 'dark' : 'light'})`);
      }
      // Signed out, none of these pages calls the server.
      expect(apiCalls).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('remembers the theme choice and otherwise follows the system preference', async () => {
    const { page, context } = await newPage(h.browser, { dark: true });
    await page.goto(base);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.getByRole('button', { name: 'Ativar tema claro' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('conversa-theme'))).toBe('light');
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await context.close();
  });
});

describe('the landing page', () => {
  it('has every section with its anchor, the cards, steps, testimonials, pricing and calls to action', async () => {
    const { page, context } = await newPage(h.browser);
    await page.goto(base);
    // The sections below the hero are a chunk of their own, fetched as the hero paints.
    await page.locator('section#faq').waitFor();
    for (const id of ['features', 'how-it-works', 'pricing', 'testimonials', 'faq']) {
      expect(await page.locator(`section#${id}`).count(), id).toBe(1);
    }
    expect(await page.locator('#features li').count()).toBe(6);
    expect(await page.locator('#how-it-works li').count()).toBe(4);
    expect(await page.locator('#testimonials figure').count()).toBe(3);
    const pro = page.locator('#pricing article').filter({ hasText: 'Pro' });
    for (const text of ['R$ 99,90', '5 canais de atendimento', 'Até 10 usuários', '25.000 contatos']) await pro.getByText(text).first().waitFor();

    const ctas = page.getByRole('link', { name: /Começar Gratuitamente/ });
    expect(await ctas.count()).toBeGreaterThanOrEqual(4);
    for (const href of await ctas.evaluateAll((links) => links.map((l) => l.getAttribute('href')))) expect(href).toBe('/register');

    await page.getByRole('link', { name: 'Como funciona' }).last().click();
    await page.waitForFunction(() => {
      const r = document.getElementById('how-it-works')!.getBoundingClientRect();
      return r.top >= -2 && r.top < 200;
    });
    expect(page.url()).toContain('#how-it-works');

    await page
      .locator('footer')
      .getByText(/pequenas e médias empresas/)
      .waitFor();
    await context.close();
  });

  it('opens one FAQ answer at a time', async () => {
    const { page, context } = await newPage(h.browser);
    await page.goto(`${base}/#faq`);
    const faq = page.locator('#faq');
    await faq.waitFor();
    const buttons = faq.getByRole('button');
    expect(await buttons.count()).toBe(6);
    const expanded = () => buttons.evaluateAll((els) => els.map((e) => e.getAttribute('aria-expanded')));
    expect(await expanded()).toEqual(Array(6).fill('false'));
    await buttons.nth(0).click();
    await faq.getByText(/menos de 2 minutos/).waitFor();
    expect((await expanded()).filter((v) => v === 'true')).toHaveLength(1);
    await buttons.nth(3).click();
    await faq.getByText(/99,90 por mês/).waitFor();
    expect(await expanded()).toEqual(['false', 'false', 'false', 'true', 'false', 'false']);
    await buttons.nth(3).press('Enter');
    expect(await expanded()).toEqual(Array(6).fill('false'));
    await context.close();
  });

  it('has a working mobile menu at 360 px that Esc closes', async () => {
    const { page, context } = await newPage(h.browser, { width: 360, height: 740 });
    await page.goto(base);
    // The page is prerendered: the menu button works once the app has loaded and hydrated it.
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Preços' }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await menu.getByRole('link', { name: 'Entrar' }).click();
    await page.waitForURL(/\/login$/);
    await context.close();
  });
});

describe('the demo page', () => {
  it('validates, fakes the submit for 1.5 s, confirms and goes home after 3 s, sending nothing', async () => {
    const { page, context, errors } = await newPage(h.browser);
    const apiCalls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/') && apiCalls.push(r.url()));
    await page.clock.install();
    await page.goto(`${base}/demo`);
    await page.getByRole('button', { name: 'Solicitar demonstração' }).click();
    expect(await page.getByText('Campo obrigatório').count()).toBe(5);
    await page.getByLabel('Nome completo').fill('Paulo Freitas');
    await page.getByLabel('E-mail corporativo').fill('paulo@padaria.com.br');
    await page.getByRole('textbox', { name: 'Empresa' }).fill('Padaria Pão Dourado');
    await page.getByLabel('Telefone').fill('(11) 98888-7777');
    await page.getByLabel('Número de funcionários').selectOption('11-50');
    // From here the page's time moves only by runFor: an installed clock also flows with real time,
    // which on a loaded machine ran past the 1.5 s between two steps.
    await page.clock.pauseAt(Date.now() + 1000);
    await page.getByRole('button', { name: 'Solicitar demonstração' }).click();
    await page.getByRole('button', { name: 'Enviando...' }).waitFor();
    await page.clock.runFor(1400);
    await page.getByRole('button', { name: 'Enviando...' }).waitFor();
    await page.clock.runFor(100);
    await page.getByText('Solicitação enviada com sucesso!').waitFor();
    await page.getByText('Nossa equipe entrará em contato em breve para agendar sua demonstração.').waitFor();
    await page.getByText('Redirecionando para a página inicial...').waitFor();
    await page.clock.runFor(2900);
    expect(new URL(page.url()).pathname).toBe('/demo');
    await page.clock.runFor(100);
    await page.waitForURL(`${base}/`);
    expect(apiCalls).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the WhatsApp widget', () => {
  const widget = (page: import('playwright-core').Page) => page.getByRole('complementary', { name: 'Atendimento pelo WhatsApp' });

  it('appears after 30 s, shows its tooltip on hover, hides the tooltip on click and itself 8 s later, with no server call', async () => {
    const { page, context } = await newPage(h.browser);
    const requests: string[] = [];
    await page.clock.install();
    await page.goto(base);
    // The widget's 30 s start with the app, which a prerendered page loads once it has painted.
    await page.waitForLoadState('networkidle');
    // No API call and nothing sent to another host (static files of the page itself may still load).
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.origin !== base || url.pathname.startsWith('/api') || url.pathname.startsWith('/ws')) requests.push(r.url());
    });
    await page.clock.runFor(29_000);
    expect(await widget(page).count()).toBe(0);
    await page.clock.runFor(1_000);
    await widget(page).waitFor();
    const link = widget(page).getByRole('link', { name: /Fale conosco pelo WhatsApp/ });
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\d+\?text=.+/);
    expect(await link.getAttribute('target')).toBe('_blank');

    // (The fake clock also flows in real time, so the slow checks stay out of the 8 s window.)
    await page.clock.runFor(7_000);
    await widget(page).waitFor();
    await link.hover();
    const tooltip = page.getByText('Precisa de ajuda? Fale conosco pelo WhatsApp');
    await tooltip.waitFor();
    await tooltip.click();
    await tooltip.waitFor({ state: 'detached' });
    await page.mouse.move(5, 5);
    await page.clock.runFor(1_000);
    await widget(page).waitFor({ state: 'detached' });
    expect(requests).toEqual([]);
    await context.close();
  });

  it('is dismissed for good with the close cross (a local-storage flag)', async () => {
    const { page, context } = await newPage(h.browser);
    await page.clock.install();
    await page.goto(base);
    await page.waitForLoadState('networkidle');
    await page.clock.runFor(30_000);
    await widget(page).waitFor();
    await expectAccessible(page, 'widget');
    await widget(page).getByRole('button', { name: 'Fechar atalho do WhatsApp' }).click();
    await widget(page).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('conversa-whatsapp-widget-dismissed'))).toBe('true');
    await page.reload();
    await page.clock.runFor(40_000);
    expect(await widget(page).count()).toBe(0);
    await context.close();
  });
});
