/**
 * Embedded Signup in the template (ADR-0217): with the context keys
 * `metaAppId` and `metaConfigId`, the Meta app's secret (held 'unset' until the operator puts it in),
 * the ids and the secret's ARN on the HTTP functions, the secret and the public origin on what starts
 * connections, and Meta's SDK allowed by the site's CSP; without them none of it, and the CSP as before.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineConversa } from './conversa-app.ts';
import { contentSecurityPolicy, metaSdkSources } from './site-headers.ts';
import { cdkContext } from './test-support/cdk-context.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (template: Template, type: string) => Object.values(template.findResources(type)) as Resource[];
const cspOf = (template: Template): string =>
  JSON.stringify(
    resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
  );
const metaOrigins = [...new Set(Object.values(metaSdkSources).flat())];

let plain: Template;
let configured: Template;
beforeAll(() => {
  plain = stageTemplates('dev').main;
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], metaAppId: '1234567890123456', metaConfigId: '987654321012345' } });
  configured = wholeTemplate(defineConversa(app, { siteAssetPath: siteFixture }).main);
});

describe('without a Meta app', () => {
  it('has no Meta secret, no Meta settings on any function and no Meta origin in the CSP', () => {
    expect(resourcesOf(plain, 'AWS::SecretsManager::Secret').filter((s) => /Meta app/.test(String(s.Properties.Description)))).toEqual([]);
    for (const fn of resourcesOf(plain, 'AWS::Lambda::Function')) {
      const env = fn.Properties.Environment?.Variables ?? {};
      for (const name of ['META_APP_ID', 'META_CONFIG_ID', 'META_APP_SECRET_ARN', 'WHATSAPP_CLOUD_WEBHOOK_BASE_URL']) expect(env).not.toHaveProperty(name);
    }
    const csp = cspOf(plain);
    for (const origin of metaOrigins) expect(csp).not.toContain(origin);
    expect(csp).not.toContain('frame-src');
  });
});

describe('with metaAppId and metaConfigId', () => {
  it("makes the app secret holding 'unset', read by ARN from the HTTP functions and the start of connections", () => {
    const [secret] = resourcesOf(configured, 'AWS::SecretsManager::Secret').filter((s) => /Meta app/.test(String(s.Properties.Description)));
    expect(secret?.Properties.SecretString).toBe('unset');
    const http = resourcesOf(configured, 'AWS::Lambda::Function').filter((fn) => /^http\//.test(String(fn.Properties.Description)));
    expect(http.length).toBeGreaterThan(1);
    for (const fn of http) {
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({ META_APP_ID: '1234567890123456', META_CONFIG_ID: '987654321012345' });
      expect(env.META_APP_SECRET_ARN).toBeDefined();
      expect(env.WHATSAPP_CLOUD_WEBHOOK_BASE_URL).toBeDefined();
      // The secret's value never travels as a setting.
      expect(env).not.toHaveProperty('META_APP_SECRET');
    }
    const planLimits = resourcesOf(configured, 'AWS::Lambda::Function').filter(
      (fn) => String(fn.Properties.Environment?.Variables?.TELEGRAM_WEBHOOK_BASE_URL ?? '') !== '' && /^streams\//.test(String(fn.Properties.Description)),
    );
    expect(planLimits.length).toBeGreaterThan(0);
    for (const fn of planLimits) expect(fn.Properties.Environment.Variables.META_APP_SECRET_ARN).toBeDefined();
  });

  it("lets the site load Meta's SDK: its script, frames, calls and pixel origins, nothing else new", () => {
    const csp = cspOf(configured);
    for (const origin of metaOrigins) expect(csp).toContain(origin);
    const rendered = contentSecurityPolicy({ mediaOrigin: 'https://media.example', shellHtml: '', metaSdk: true });
    expect(rendered).toMatch(/script-src 'self' 'wasm-unsafe-eval' https:\/\/connect\.facebook\.net;/);
    expect(rendered).toContain("frame-src 'self' https://www.facebook.com https://web.facebook.com https://staticxx.facebook.com");
    expect(rendered).toMatch(/connect-src 'self' https:\/\/media\.example https:\/\/graph\.facebook\.com https:\/\/www\.facebook\.com;/);
    expect(rendered).toMatch(/img-src 'self' data: blob: https:\/\/media\.example https:\/\/www\.facebook\.com;/);
    expect(rendered).not.toContain('unsafe-inline');
    // The rest is the policy without Meta, directive for directive.
    const without = contentSecurityPolicy({ mediaOrigin: 'https://media.example', shellHtml: '' });
    const strip = (policy: string) =>
      policy
        .split('; ')
        .filter((d) => !d.startsWith('frame-src'))
        .map((d) => d.replace(/ https:\/\/[a-z.]*facebook\.(com|net)/g, ''));
    expect(strip(rendered)).toEqual(without.split('; '));
  });

  it('refuses one key without the other', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], metaAppId: '1234567890123456' } });
    expect(() => defineConversa(app, { siteAssetPath: siteFixture })).toThrow(/metaAppId and metaConfigId together/);
  });
});
