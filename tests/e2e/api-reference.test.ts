/**
 * The API reference page (/docs/api, ADR-0238) in a browser: prerendered with
 * every operation of the generated document, the token routes whole with their examples, the
 * others opening from the keyboard, /openapi.json downloadable and equal to the committed
 * document; axe clean in the light theme at 1280 px and in the dark one at 390 px, with nothing
 * wider than the phone.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, type Harness, newPage, startHarness } from './browser.ts';

let h: Harness;
let base: string;
let openApi: { paths: Record<string, Record<string, { operationId: string; summary: string; 'x-token-scope'?: string }>> };

beforeAll(async () => {
  h = await startHarness();
  base = h.runtime.url;
  const file = new URL('../../web/src/features/marketing/api-reference/openapi.json', import.meta.url);
  openApi = JSON.parse(await readFile(file, 'utf8'));
});
afterAll(async () => {
  await h?.stop();
});

const operations = () =>
  Object.entries(openApi.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

describe('the API reference page', () => {
  it('is prerendered with every operation, serves the document, and opens an app route from the keyboard (light, 1280 px)', async () => {
    const html = await (await fetch(`${base}/docs/api`)).text();
    for (const { operation } of operations()) expect(html, operation.operationId).toContain(`id="${operation.operationId.toLowerCase()}"`);
    expect(html).toContain('>/contacts</code>');

    const served = await fetch(`${base}/openapi.json`);
    expect(served.headers.get('content-type')).toContain('application/json');
    expect(await served.json()).toEqual(openApi);

    const { page, context, errors } = await newPage(h.browser);
    await page.goto(`${base}/docs/api`);
    await page.getByRole('heading', { level: 1, name: 'Referência da API' }).waitFor();
    await page.waitForLoadState('networkidle');
    const tokenOperations = operations().filter((o) => o.operation['x-token-scope']);
    expect(tokenOperations.length).toBeGreaterThan(5);
    for (const { method, path: route, operation } of tokenOperations) {
      const card = page.locator(`article#${operation.operationId.toLowerCase()}`);
      await card.getByRole('heading', { level: 3, name: new RegExp(`${method}\\s+${route.replace(/[{}/]/g, '\\$&')}`) }).waitFor();
      await card.getByText(operation['x-token-scope'] as string, { exact: true }).waitFor();
      await card.getByLabel(`Exemplo em curl: ${method} ${route}`).waitFor();
      await card.getByLabel(`Exemplo em JavaScript (fetch): ${method} ${route}`).waitFor();
    }
    expect(await page.getByRole('link', { name: 'baixar openapi.json' }).getAttribute('href')).toBe('/openapi.json');

    // An app route's row opens from the keyboard.
    const row = page.locator('li#listusers details');
    await row.locator('summary').focus();
    await page.keyboard.press('Enter');
    await row.getByText('Membros da conta. Não aceita token de API.').waitFor();
    expect(await row.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    await expectAccessible(page, '/docs/api (light)');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a 390 px phone in the dark theme, and the site links to it', async () => {
    const { page, context, errors } = await newPage(h.browser, { dark: true, width: 390, height: 844 });
    await page.goto(base);
    await page.locator('footer').getByRole('link', { name: 'API para desenvolvedores' }).click();
    await page.getByRole('heading', { level: 1, name: 'Referência da API' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/docs/api');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page, '/docs/api (dark, 390 px)');
    expect(errors).toEqual([]);
    await context.close();
  });
});
