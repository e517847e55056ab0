/**
 * The WhatsApp (API oficial) webhook in the template: its GET (Meta's handshake) and POST
 * (deliveries) routes, public and served by the function holding their handlers with 30 s for
 * media copies; the web ACL letting Meta's calls through (no browser headers, no rate rule on the
 * path); the refusals and the red quality rating alarmed; the Graph API root given to the functions.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { functionOf } from './constructs/http-function-groups.ts';
import { defineConversa } from './conversa-app.ts';
import { RATE_EXEMPT_PATH_PREFIX } from './edge-stack.ts';
import { cdkContext } from './test-support/cdk-context.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { evaluateWebAcl } from './test-support/waf-evaluator.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any> };
const resourcesOf = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;

const getRoute = 'GET /api/webhooks/whatsapp-cloud/{serviceId}';
const postRoute = 'POST /api/webhooks/whatsapp-cloud/{serviceId}';

let main: Template;
let webAcl: Record<string, any>;
beforeAll(() => {
  const dev = stageTemplates('dev');
  main = dev.main;
  webAcl = Object.values(dev.edge.findResources('AWS::WAFv2::WebACL'))[0]!.Properties;
});

/** The Lambda function a route key is integrated with: [logical id, resource]. */
function functionOfRoute(template: Template, routeKey: string): [string, Resource] {
  const route = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find((r) => r.Properties.RouteKey === routeKey);
  expect(route, routeKey).toBeDefined();
  const integrationId = (route!.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
  const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationId.Ref]!;
  const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([id]) =>
    JSON.stringify(integration.Properties.IntegrationUri).includes(id),
  );
  expect(functions).toHaveLength(1);
  return functions[0]!;
}

describe('the WhatsApp (API oficial) webhook routes', () => {
  it('are public (no authorizer), one GET and one POST carrying the connection id', () => {
    for (const key of [getRoute, postRoute]) {
      const routes = Object.values(resourcesOf(main, 'AWS::ApiGatewayV2::Route')).filter((r) => r.Properties.RouteKey === key);
      expect(routes, key).toHaveLength(1);
      expect(routes[0]!.Properties.AuthorizationType ?? 'NONE', key).toBe('NONE');
    }
  });

  it('go to the function holding their handlers, which has 30 s for media copies and the common rights only', () => {
    const [postId, post] = functionOfRoute(main, postRoute);
    const [getId] = functionOfRoute(main, getRoute);
    expect(getId).toBe(postId);
    const handler = httpRoutes.find((r) => r.path === '/webhooks/whatsapp-cloud/{serviceId}' && r.method === 'POST')!;
    expect(post.Properties.Description).toBe(`http/${functionOf('by-rights', handler)}`);
    expect(post.Properties.Timeout).toBeGreaterThanOrEqual(30);
    // No secret of Meta's in any environment: app secrets and tokens are sealed in the table.
    for (const fn of Object.values(resourcesOf(main, 'AWS::Lambda::Function'))) {
      expect(JSON.stringify(fn.Properties.Environment?.Variables ?? {})).not.toMatch(/APP_SECRET|EAAG|verify_token/i);
    }
  });

  it('are let through by the web ACL as Meta calls them: no User-Agent or a crawler one, never rate-limited', () => {
    expect(`/api/webhooks/whatsapp-cloud/x`.startsWith(RATE_EXEMPT_PATH_PREFIX)).toBe(true);
    const path = '/api/webhooks/whatsapp-cloud/01JSERVICE0000000000000000';
    const handshake = { method: 'GET', uriPath: path, headers: {} };
    const delivery = {
      method: 'POST',
      uriPath: path,
      headers: { 'content-type': 'application/json', 'user-agent': 'facebookexternalua', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    };
    const bare = { method: 'POST', uriPath: path, headers: { 'content-type': 'application/json' } };
    for (const request of [handshake, delivery, bare])
      expect(evaluateWebAcl(webAcl, request).action, `${request.method} ${JSON.stringify(request.headers)}`).toBe('allow');
    // The same bare call elsewhere is still blocked.
    expect(evaluateWebAcl(webAcl, { ...bare, uriPath: '/api/services' }).action).toBe('block');
  });

  it('alarms on refused deliveries and on a number falling to red', () => {
    const alarms = Object.entries(resourcesOf(main, 'AWS::CloudWatch::Alarm'));
    const rejected = alarms.filter(([id]) => id.startsWith('OperationsWebhooksRejected') && /whatsapp/i.test(id));
    expect(rejected).toHaveLength(1);
    expect(rejected[0]![1].Properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'source', Value: 'whatsapp-cloud' }]));
    const red = alarms.filter(([id]) => id.startsWith('OperationsCloudQualityRed'));
    expect(red).toHaveLength(1);
    expect(red[0]![1].Properties).toMatchObject({ MetricName: 'CloudQualityRed', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(red[0]![1].Properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'channel', Value: 'whatsapp_cloud' }]));
  });
});

describe('the Graph API root', () => {
  it("is Meta's own unless given: no WHATSAPP_CLOUD_GRAPH_URL by default", () => {
    for (const fn of Object.values(resourcesOf(main, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment?.Variables ?? {}).not.toHaveProperty('WHATSAPP_CLOUD_GRAPH_URL');
    }
  });

  it('is given from context to every function (the webhook, the send queue consumer)', () => {
    const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], whatsappCloudGraphUrl: 'https://graph.example.com' } });
    const { main: stack } = defineConversa(app, { siteAssetPath: siteFixture });
    const template = wholeTemplate(stack);
    const ours = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter((fn) =>
      /^(http|ws|streams|queues)\//.test(String(fn.Properties.Description)),
    );
    expect(ours.length).toBeGreaterThan(3);
    for (const fn of ours)
      expect(fn.Properties.Environment.Variables.WHATSAPP_CLOUD_GRAPH_URL, String(fn.Properties.Description)).toBe('https://graph.example.com');
  });
});
