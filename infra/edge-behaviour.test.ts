/**
 * What AWS would do with the edge of the template (issue 27): requests as Telegram, Stripe and
 * browsers send them, through the web ACL as WAF evaluates it (infra/test-support/waf-evaluator.ts).
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { defineConversa } from './conversa-app.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { evaluateWebAcl, type WafRequest } from './test-support/waf-evaluator.ts';

const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

let webAcl: Record<string, any>;
beforeAll(() => {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [] } });
  const { edge } = defineConversa(app, { siteAssetPath: siteFixture });
  const acls = Object.values(Template.fromStack(edge).findResources('AWS::WAFv2::WebACL'));
  expect(acls).toHaveLength(1);
  webAcl = acls[0]!.Properties;
});

const browser = { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/140.0 Mobile Safari/537.36' };
const request = (method: string, uriPath: string, headers: Record<string, string> = {}): WafRequest => ({ method, uriPath, headers });

describe('the web ACL, as WAF evaluates it', () => {
  it("lets Telegram's webhook deliveries through: they carry no User-Agent", () => {
    const delivery = request('POST', '/api/webhooks/telegram/svc_01J0000000000000000000000', {
      'content-type': 'application/json',
      'x-telegram-bot-api-secret-token': 'secret',
    });
    expect(evaluateWebAcl(webAcl, delivery)).toMatchObject({ action: 'allow' });
    // Every webhook route, whatever its sender sends.
    for (const route of httpRoutes.filter((r) => r.path.startsWith('/webhooks/'))) {
      const path = `/api${route.path.replace(/\{(\w+)\}/g, 'x')}`;
      expect(evaluateWebAcl(webAcl, request(route.method, path)).action, path).toBe('allow');
    }
  });

  it('still blocks requests without a User-Agent everywhere else, and lets browsers through', () => {
    for (const path of ['/api/auth/login', '/api/contacts', '/', '/inbox', '/api/webhooksx', '/api/webhook/telegram/x']) {
      expect(evaluateWebAcl(webAcl, request('POST', path)).action, path).toBe('block');
      expect(evaluateWebAcl(webAcl, request('POST', path, browser)).action, path).toBe('allow');
    }
  });
});
