/**
 * Day one on a real AWS account: what the template must say so that AWS does what we
 * mean with it (the runtime's support window, what a prod deletion keeps, the API's throttle).
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { defineConversa } from './conversa-app.ts';
import { ConversaStack } from './stack.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

function synth(context: Record<string, unknown> = {}): Template {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  return wholeTemplate(new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture }));
}
const resourcesOf = (template: Template, type: string) => Object.entries(template.findResources(type) as Record<string, Resource>);

// Each stage's app, synthesised once for the infra project (infra/test-support/synth-stages.ts).
const dev = stageTemplates('dev').main;
const prod = stageTemplates('prod').main;

describe('the Lambda runtime', () => {
  it('is the newest Node.js runtime aws-cdk-lib offers, for every function of ours', () => {
    const newest = Object.keys(lambda.Runtime)
      .map((key) => /^NODEJS_(\d+)_X$/.exec(key)?.[1])
      .filter((major): major is string => major !== undefined)
      .map(Number)
      .sort((a, b) => b - a)[0];
    expect(newest).toBeGreaterThanOrEqual(24);
    const ours = resourcesOf(dev, 'AWS::Lambda::Function').filter(([, fn]) => /^(http|ws|streams|queues|schedules)\//.test(fn.Properties.Description ?? ''));
    expect(ours.length).toBeGreaterThan(8);
    for (const [id, fn] of ours) expect(fn.Properties.Runtime, id).toBe(`nodejs${newest}.x`);
  });
});

describe('a prod stack deleted', () => {
  const secret = (template: Template, pattern: RegExp) =>
    resourcesOf(template, 'AWS::SecretsManager::Secret').find(([, s]) => pattern.test(s.Properties.Description))![1];

  it('keeps the JWT signing secret and the data key, as it keeps the table whose credentials the key seals', () => {
    for (const pattern of [/access tokens/, /at rest/]) {
      expect(secret(prod, pattern)).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      expect(secret(dev, pattern)).toMatchObject({ DeletionPolicy: 'Delete' });
    }
    expect(resourcesOf(prod, 'AWS::DynamoDB::GlobalTable')[0]![1].DeletionPolicy).toBe('Retain');
  });
});

describe("the HTTP API's stage throttle", () => {
  const throttle = (template: Template) => {
    const stages = resourcesOf(template, 'AWS::ApiGatewayV2::Stage').filter(([, s]) => s.Properties.StageName === '$default');
    expect(stages).toHaveLength(1);
    return stages[0]![1].Properties.DefaultRouteSettings as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
  };

  it('is a ceiling for the whole product (per-address limits are the WAF’s), 500 a second unless context says', () => {
    expect(throttle(dev)).toMatchObject({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    expect(throttle(synth({ apiRateLimit: '2000', apiBurstLimit: '4000' }))).toMatchObject({ ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 });
    expect(() => synth({ apiRateLimit: 'lots' })).toThrow(/apiRateLimit/);
  });
});

describe("a stage's context kept in cdk.json", () => {
  const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
  const stages = { prod: { domainName: 'app.example.com.br', certificateArn, mailFrom: 'nao-responda@example.com.br' } };
  const aliasesOf = (context: Record<string, unknown>) => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], stages, ...context } });
    const { main } = defineConversa(app, { siteAssetPath: siteFixture });
    const [[, distribution]] = resourcesOf(wholeTemplate(main), 'AWS::CloudFront::Distribution') as [[string, Resource]];
    return distribution.Properties.DistributionConfig.Aliases as string[] | undefined;
  };

  it("applies the chosen stage's block, so `-c stage=prod` alone cannot drop the domain, and no other stage gets it", () => {
    expect(aliasesOf({ stage: 'prod' })).toEqual(['app.example.com.br']);
    expect(aliasesOf({})).toBeUndefined();
  });

  it('lets a value given on the command line win over the block', () => {
    expect(aliasesOf({ stage: 'prod', domainName: 'novo.example.com.br' })).toEqual(['novo.example.com.br']);
  });

  it('refuses a block that is not an object of plain values', () => {
    expect(() => aliasesOf({ stage: 'prod', stages: { prod: 'app.example.com.br' } })).toThrow(/stages\.prod/);
  });
});
