/**
 * What AWS would do with the edge of the template (ADR-0102): requests as Telegram, Stripe and
 * browsers send them, through the web ACL as WAF evaluates it (infra/test-support/waf-evaluator.ts).
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '#functions/lib/caller-address.ts';
import { defineConversa } from './conversa-app.ts';
import { cdkContext } from './test-support/cdk-context.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { evaluateWebAcl, type WafRequest } from './test-support/waf-evaluator.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const appWith = (context: Record<string, unknown> = {}) =>
  defineConversa(new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } }), { siteAssetPath: siteFixture });

let webAcl: Record<string, any>;
let main: Template;
beforeAll(() => {
  const dev = stageTemplates('dev');
  main = dev.main;
  const acls = Object.values(dev.edge.findResources('AWS::WAFv2::WebACL'));
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

describe('the only way in: CloudFront, with the viewer’s address', () => {
  const resources = (type: string) => Object.entries(main.findResources(type) as Record<string, Resource>);
  const distribution = () => resources('AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
  const apiBehaviour = () => (distribution().CacheBehaviors as Record<string, any>[]).find((b) => b.PathPattern === '/api/*')!;
  const httpApiId = () => resources('AWS::ApiGatewayV2::Api').find(([, a]) => a.Properties.ProtocolType === 'HTTP')![0];
  const originSecretId = () => resources('AWS::SecretsManager::Secret').find(([, s]) => /CloudFront/.test(s.Properties.Description))![0];

  it('sends a generated secret with every request to the HTTP API, which every HTTP function may read to check it', () => {
    const behaviour = apiBehaviour();
    const origin = (distribution().Origins as Record<string, any>[]).find((o) => o.Id === behaviour.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain(httpApiId());
    const secretId = originSecretId();
    expect(resources('AWS::SecretsManager::Secret').find(([id]) => id === secretId)![1].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    // CloudFormation resolves the secret into the header at deploy time: the template holds no value.
    expect(origin.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] } },
    ]);
    const httpFunctions = resources('AWS::Lambda::Function').filter(([, fn]) => String(fn.Properties.Description).startsWith('http/'));
    // One per set of rights (infra/constructs/http-function-groups.ts).
    expect(httpFunctions).toHaveLength(3);
    const policies = resources('AWS::IAM::Policy').map(([, p]) => p.Properties);
    for (const [id, fn] of httpFunctions) {
      expect(fn.Properties.Environment.Variables.ORIGIN_VERIFY_ARN, id).toEqual({ Ref: secretId });
      const role = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = policies.filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === role)).flatMap((p) => p.PolicyDocument.Statement);
      expect(
        statements.some(
          (st: { Action: string | string[]; Resource: unknown }) =>
            [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
            [st.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify({ Ref: secretId })),
        ),
        id,
      ).toBe(true);
    }
  });

  it('sends the same secret with the WebSocket upgrade on /ws, which $connect may read to check it', () => {
    const behaviour = (distribution().CacheBehaviors as Record<string, any>[]).find((b) => b.PathPattern === '/ws')!;
    const origin = (distribution().Origins as Record<string, any>[]).find((o) => o.Id === behaviour.TargetOriginId)!;
    const webSocketApiId = resources('AWS::ApiGatewayV2::Api').find(([, a]) => a.Properties.ProtocolType === 'WEBSOCKET')![0];
    expect(JSON.stringify(origin.DomainName)).toContain(webSocketApiId);
    const secretId = originSecretId();
    expect(origin.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] } },
    ]);
    const [connectId, connect] = resources('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === 'ws/connect')!;
    expect(connect.Properties.Environment.Variables.ORIGIN_VERIFY_ARN, connectId).toEqual({ Ref: secretId });
    const role = connect.Properties.Role['Fn::GetAtt'][0];
    const statements = resources('AWS::IAM::Policy')
      .map(([, p]) => p.Properties)
      .filter((p) => p.Roles.some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.PolicyDocument.Statement);
    expect(
      statements.some(
        (st: { Action: string | string[]; Resource: unknown }) =>
          [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
          [st.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify({ Ref: secretId })),
      ),
    ).toBe(true);
  });

  it("writes the viewer's address on /api/* requests at the edge, over any the viewer claimed", () => {
    const association = (apiBehaviour().FunctionAssociations as { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[]).find(
      (a) => a.EventType === 'viewer-request',
    )!;
    const fn = resources('AWS::CloudFront::Function').find(([id]) => id === association.FunctionARN['Fn::GetAtt'][0])![1];
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const handler = new Function(`${fn.Properties.FunctionCode}; return handler;`)() as (event: unknown) => { headers: Record<string, { value: string }> };
    const request = { uri: '/api/auth/login', headers: { [VIEWER_ADDRESS_HEADER]: { value: '10.0.0.1' } } };
    expect(handler({ request, viewer: { ip: '2001:db8::7' } }).headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '2001:db8::7' });
  });

  it("refuses to register Telegram's webhooks on the API's own URL, which the origin check refuses", () => {
    expect(() => appWith({ publicApiUrl: 'https://abc123.execute-api.sa-east-1.amazonaws.com' })).toThrow(/publicApiUrl/);
  });
});
