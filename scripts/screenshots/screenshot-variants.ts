/**
 * The screenshot scripts' one view in four variants (1280 and 390 px wide, light and dark): opens a
 * path as a member, waits for it, optionally opens a menu or a dialog, and writes
 * `<out>/<name>-<width>-<light|dark>.png`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newPage, root } from '../../tests/e2e/browser.ts';
import { openAs, type Member, type World } from '../../tests/e2e/world.ts';

type Shoot = (
  name: string,
  who: Member,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  then?: (page: Page, wide: boolean) => Promise<unknown>,
) => Promise<void>;

/** A `shoot` for `world` writing into docs/screenshots; `only` skips names that do not contain it. */
export function screenshotVariants(world: World, only?: string): Shoot {
  const out = join(root, 'docs/screenshots');
  mkdirSync(out, { recursive: true });
  return async (name, who, path, ready, then) => {
    if (only && !name.includes(only)) return;
    for (const width of [1280, 390]) {
      for (const dark of [false, true]) {
        const { page, context, errors } = await newPage(world.browser, { width, height: width > 500 ? 800 : 844, dark });
        await openAs(page, world, who, path);
        await ready(page);
        if (then) await then(page, width > 500);
        await page.waitForTimeout(400);
        const file = join(out, `${name}-${width}-${dark ? 'dark' : 'light'}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${file}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
        await context.close();
      }
    }
  };
}
