/**
 * `npm run cost`: synthesises the stacks in-process (bundling off, the site fixture in place of
 * web/dist, as the infra tests do), counts what costs money in the templates, prices it for
 * us-east-1 and sa-east-1 and rewrites the marked section of docs/cost.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { costReport, inventoryOf, renderCost, replaceSection } from '../infra/cost/model.ts';
import { prices, PRICES_AS_OF } from '../infra/cost/prices.ts';
import { synthTemplates } from '../infra/cost/synth.ts';

const context: Record<string, string> = {};
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.replace(/^-c/, '').replace(/^=?/, '').split('=');
  if (key && value !== undefined) context[key] = value;
}
const inventory = inventoryOf(...synthTemplates({ stage: 'prod', ...context }));
const markdown = renderCost(inventory, [costReport(inventory, prices['us-east-1']), costReport(inventory, prices['sa-east-1'])], PRICES_AS_OF);
const path = new URL('../docs/cost.md', import.meta.url);
writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), markdown));
console.log(markdown);
