/** The templates the cost model reads: synthesised in-process like the infra tests do (no bundling, the site fixture). */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { defineConversa } from '../conversa-app.ts';
import { siteFixture } from '../test-support/site-fixture.ts';
import { wholeTemplate } from '../test-support/whole-template.ts';
import type { TemplateJson } from './model.ts';

const cdkContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** The main stack (its nested routes stack merged in) and the edge stack, for the given context (`stage`, `workerDesiredCount`, …). */
export function synthTemplates(context: Record<string, unknown> = {}): [TemplateJson, TemplateJson] {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const { main, edge } = defineConversa(app, { siteAssetPath: siteFixture });
  return [wholeTemplate(main).toJSON() as TemplateJson, Template.fromStack(edge).toJSON() as TemplateJson];
}
