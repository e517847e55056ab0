/**
 * The web app's hosting (S3, CloudFront, security headers, the upload of the build), the WAF in
 * us-east-1 and how the application stack gets it, the stages, and the resource budget.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, NestedStack, Stage } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HASHED_ASSETS_DIR,
  immutableCacheControl,
  precompressedCopies,
  SITE_LOG_DAYS,
  SITE_LOG_PREFIX,
  shellCacheControl,
  spaFallbackSource,
} from './constructs/web-site.ts';
import { DEFAULT_REGION, defineConversa } from './conversa-app.ts';
import { DEFAULT_RATE_LIMIT, EDGE_REGION, managedRuleGroups, RATE_EXEMPT_PATH_PREFIX, redactedHeaders } from './edge-stack.ts';
import { httpRoutes } from '#functions/http/routes.ts';
import { contentSecurityPolicy, inlineScriptsOf, permissionsPolicy, scriptHash } from './site-headers.ts';
import { ConversaStack } from './stack.ts';
import { htmlFileFor, notFoundPage, prerenderedPages, shellPaths } from '#web/app/static-routes.ts';
import { siteFixture } from './test-support/site-fixture.ts';
import { stageTemplates } from './test-support/stage-templates.ts';
import { wholeTemplate } from './test-support/whole-template.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

function appWith(context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  return defineConversa(app, { siteAssetPath: siteFixture });
}

function stackWith(context: Record<string, unknown> = {}, props: ConstructorParameters<typeof ConversaStack>[2] = {}) {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  return new ConversaStack(app, 'ConversaStack', { siteAssetPath: siteFixture, ...props });
}

const resourcesOf = (template: Template, type: string) => template.findResources(type) as Record<string, Resource>;
const only = (template: Template, type: string): [string, Resource] => {
  const entries = Object.entries(resourcesOf(template, type));
  expect(entries, type).toHaveLength(1);
  return entries[0]!;
};

let stacks: ReturnType<typeof appWith>;
let template: Template;
let distribution: Record<string, any>;
let behaviours: Record<string, any>;

beforeAll(() => {
  // Constructed for its constructs (regions, dependencies, staged assets); the templates are the
  // dev stage's, synthesised once for the infra project.
  stacks = appWith();
  template = stageTemplates('dev').main;
  distribution = only(template, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
  behaviours = Object.fromEntries((distribution.CacheBehaviors as { PathPattern: string }[]).map((b) => [b.PathPattern, b]));
});

/** The origin a behaviour sends to. */
const originOf = (behaviour: { TargetOriginId: string }) =>
  (distribution.Origins as { Id: string }[]).find((o) => o.Id === behaviour.TargetOriginId) as Record<string, any>;

describe('the distribution', () => {
  it('serves the site bucket by default through origin access control, HTTPS only, with the SPA fallback on viewer requests', () => {
    // The site bucket: not the media bucket (CORS) nor its access-log bucket (a lifecycle expiry).
    const [bucketId] = Object.entries(resourcesOf(template, 'AWS::S3::Bucket')).find(
      ([, b]) => !b.Properties.CorsConfiguration && !b.Properties.LifecycleConfiguration?.Rules?.some((r: { ExpirationInDays?: number }) => r.ExpirationInDays),
    )!;
    const origin = originOf(distribution.DefaultCacheBehavior);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] });
    expect(origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [only(template, 'AWS::CloudFront::OriginAccessControl')[0], 'Id'] });
    expect(distribution.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      FunctionAssociations: [
        {
          EventType: 'viewer-request',
          FunctionARN: {
            'Fn::GetAtt': [
              Object.entries(resourcesOf(template, 'AWS::CloudFront::Function')).find(([, f]) => f.Properties.FunctionCode === spaFallbackSource)![0],
              'FunctionARN',
            ],
          },
        },
      ],
    });
    expect(distribution.DefaultRootObject).toBe('index.html');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Allow', Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } })]),
      },
    });
  });

  it('revalidates the shell on every request and caches hashed assets for a year', () => {
    const policies = Object.entries(resourcesOf(template, 'AWS::CloudFront::CachePolicy'));
    expect(policies).toHaveLength(2);
    const [shellPolicyId, shellPolicy] = policies.find(([, p]) => p.Properties.CachePolicyConfig.DefaultTTL === 0)!;
    const [assetsPolicyId, assetsPolicy] = policies.find(([id]) => id !== shellPolicyId)!;
    expect(shellPolicy.Properties.CachePolicyConfig).toMatchObject({ MinTTL: 0, DefaultTTL: 0 });
    expect(distribution.DefaultCacheBehavior.CachePolicyId).toEqual({ Ref: shellPolicyId });
    const year = 365 * 24 * 60 * 60;
    expect(assetsPolicy.Properties.CachePolicyConfig).toMatchObject({ MinTTL: year, DefaultTTL: year, MaxTTL: year });
    expect(behaviours[`/${HASHED_ASSETS_DIR}/*`]).toMatchObject({ CachePolicyId: { Ref: assetsPolicyId }, Compress: true });
    expect(originOf(behaviours[`/${HASHED_ASSETS_DIR}/*`])).toEqual(originOf(distribution.DefaultCacheBehavior));
  });

  it('compresses the site with Brotli or gzip at the edge, each coding cached apart, and uploads no precompressed copies', () => {
    for (const [id, policy] of Object.entries(resourcesOf(template, 'AWS::CloudFront::CachePolicy'))) {
      // Accept-Encoding (normalised by CloudFront to br, gzip or neither) is part of the cache key.
      expect(policy.Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin, id).toMatchObject({
        EnableAcceptEncodingBrotli: true,
        EnableAcceptEncodingGzip: true,
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
        QueryStringsConfig: { QueryStringBehavior: 'none' },
      });
    }
    // Both site behaviours compress; the WebSocket passes through as it is.
    expect(distribution.DefaultCacheBehavior.Compress).toBe(true);
    expect(behaviours[`/${HASHED_ASSETS_DIR}/*`].Compress).toBe(true);
    expect(behaviours['/ws'].Compress).toBe(false);
    // The fixture build holds assets/index-fixture.js.br and .gz: the staged upload leaves them out.
    const staged = stacks.main.node
      .findAll()
      .filter((c): c is s3assets.Asset => c instanceof s3assets.Asset && c.node.path.includes('Deploy'))
      .map((asset) => join(Stage.of(asset)!.outdir, asset.assetPath))
      .filter((path) => existsSync(join(path, 'index.html')))
      .map((dir) => readdirSync(dir, { recursive: true }).map(String));
    expect(staged).toHaveLength(2);
    for (const files of staged) {
      expect(files).toContain(join(HASHED_ASSETS_DIR, 'index-fixture.js'));
      expect(files.filter((f) => precompressedCopies.some((glob) => f.endsWith(glob.slice(1))))).toEqual([]);
    }
  });

  it('sends /api/* to the HTTP API, uncached, with everything the viewer sent but Host', () => {
    const [httpApiId] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, a]) => a.Properties.ProtocolType === 'HTTP')!;
    const api = behaviours['/api/*'];
    expect(api).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
    });
    const origin = originOf(api);
    expect(JSON.stringify(origin.DomainName)).toContain(`{"Ref":"${httpApiId}"}`);
    expect(origin.OriginPath ?? '').toBe('');
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  });

  it("leaves /api/*'s compression to the functions: the viewer's Accept-Encoding reaches them, their encoding goes back as it is", () => {
    // ADR-0167: the functions compress their JSON answers for the request's Accept-Encoding
    // (functions/lib/compress-response.ts). CachingDisabled has both EnableAcceptEncoding flags off, so
    // CloudFront neither normalises that header nor compresses (an answer with Content-Encoding is
    // sent on as it is); AllViewerExceptHostHeader forwards every viewer header, Accept-Encoding
    // included. No policy of our own stands in for either.
    const api = behaviours['/api/*'];
    expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    for (const [, policy] of Object.entries(resourcesOf(template, 'AWS::CloudFront::OriginRequestPolicy'))) {
      expect(JSON.stringify(policy.Properties).toLowerCase()).not.toContain('accept-encoding');
    }
  });

  it('sends /ws, as it is, to the WebSocket API, whose stage is named ws', () => {
    const [wsApiId] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Api')).find(([, a]) => a.Properties.ProtocolType === 'WEBSOCKET')!;
    const ws = behaviours['/ws'];
    expect(ws).toMatchObject({ CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac' });
    const origin = originOf(ws);
    expect(JSON.stringify(origin.DomainName)).toContain(`{"Ref":"${wsApiId}"}`);
    expect(origin.OriginPath ?? '').toBe('');
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { ApiId: { Ref: wsApiId }, StageName: 'ws' });
  });

  it('puts the security headers on every behaviour', () => {
    const [policyId] = only(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    for (const behaviour of [distribution.DefaultCacheBehavior, ...Object.values(behaviours)]) {
      expect(behaviour.ResponseHeadersPolicyId, behaviour.PathPattern ?? 'default').toEqual({ Ref: policyId });
    }
  });

  it('writes standard access logs, without cookies, to a bucket of their own that keeps them 90 days', () => {
    expect(distribution.Logging).toMatchObject({ Prefix: SITE_LOG_PREFIX, IncludeCookies: false });
    const bucketId = distribution.Logging.Bucket['Fn::GetAtt'][0] as string;
    const bucket = resourcesOf(template, 'AWS::S3::Bucket')[bucketId]!;
    // CloudFront delivers these logs with an ACL grant: the only bucket with ACLs on, none public.
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'ObjectWriter' }] });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ ExpirationInDays: SITE_LOG_DAYS, Status: 'Enabled' })]);
    expect(SITE_LOG_DAYS).toBe(90);
    // Dev lets them go with the stack; prod keeps them, as it keeps log groups.
    expect(bucket.DeletionPolicy).toBe('Delete');
    const prod = stageTemplates('prod').main;
    const prodDistribution = only(prod, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
    expect(resourcesOf(prod, 'AWS::S3::Bucket')[prodDistribution.Logging.Bucket['Fn::GetAtt'][0]]!.DeletionPolicy).toBe('Retain');
  });

  it('is associated with the edge stack’s web ACL, read across regions', () => {
    expect(distribution.WebACLId).toEqual({
      'Fn::GetStackOutput': { StackName: 'ConversaEdge-dev', Region: EDGE_REGION, OutputName: expect.any(String) },
    });
    const output = distribution.WebACLId['Fn::GetStackOutput'].OutputName as string;
    const { edge } = stageTemplates('dev');
    const edgeOutputs = edge.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(edgeOutputs[output]!.Value).toEqual({ 'Fn::GetAtt': [only(edge, 'AWS::WAFv2::WebACL')[0], 'Arn'] });
  });

  it('uses a custom domain and its us-east-1 certificate from context, and refuses half of it or another region', () => {
    const arn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    const custom = wholeTemplate(stackWith({ domainName: 'app.conversa.example', certificateArn: arn }));
    const config = only(custom, 'AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
    expect(config.Aliases).toEqual(['app.conversa.example']);
    expect(config.ViewerCertificate).toMatchObject({ AcmCertificateArn: arn, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
    // The app's origin is the custom domain: e-mail links and the media bucket's CORS follow it.
    custom.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://app.conversa.example'] })] },
    });
    expect(() => stackWith({ domainName: 'app.conversa.example' })).toThrow(/both domainName and certificateArn/);
    expect(() => stackWith({ domainName: 'a.example', certificateArn: arn.replace('us-east-1', 'sa-east-1') })).toThrow(/certificate in us-east-1/);
  });
});

describe('the security headers', () => {
  it('set CSP, HSTS, frame, content-type, referrer and permissions policies, overriding the origin', () => {
    const config = only(template, 'AWS::CloudFront::ResponseHeadersPolicy')[1].Properties.ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
      ContentSecurityPolicy: { Override: true },
    });
    expect(config.CustomHeadersConfig.Items).toEqual([{ Header: 'Permissions-Policy', Value: permissionsPolicy, Override: true }]);
  });

  it("allow the media bucket's origin for images, media and uploads, and nothing outside the site otherwise", () => {
    const csp = only(template, 'AWS::CloudFront::ResponseHeadersPolicy')[1].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
      .ContentSecurityPolicy;
    // The bucket's name is made of the stage and pseudo parameters: no reference to the bucket itself.
    const text = JSON.stringify(csp);
    expect(text).toContain('https://conversa-dev-media-');
    expect(text).toContain('.s3.');
    expect(text).not.toMatch(/"Ref":"Media/);
    const rendered = contentSecurityPolicy({ mediaOrigin: 'https://media.example' });
    expect(rendered).toContain("default-src 'self'");
    expect(rendered).toMatch(/img-src 'self' data: blob: https:\/\/media\.example;/);
    expect(rendered).toMatch(/connect-src 'self' https:\/\/media\.example;/);
    expect(rendered).toContain("frame-ancestors 'none'");
    expect(rendered).not.toContain('unsafe-inline');
    // WebAssembly may compile ('wasm-unsafe-eval', the voice recorder's Opus encoder); JavaScript eval may not.
    expect(rendered).not.toContain("'unsafe-eval'");
    expect(rendered).toMatch(/script-src [^;]* 'wasm-unsafe-eval';/);
    // Meta's SDK only with a Meta app for Embedded Signup (infra/embedded-signup.test.ts): not by default.
    expect(rendered).not.toMatch(/facebook|frame-src/);
  });

  it("allow the shell's inline scripts (the theme, the early first request) by their hashes, the scripts web/index.html has", () => {
    const shell = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
    const scripts = inlineScriptsOf(shell);
    expect(scripts).toHaveLength(2);
    expect(contentSecurityPolicy({ mediaOrigin: 'https://m.example' })).toContain(`script-src 'self' ${scripts.map(scriptHash).join(' ')} 'wasm-unsafe-eval';`);
  });

  it('leave data blocks out: the built shell hashes the same scripts as its source', () => {
    const built = '<script>a()</script><script type="application/json" id="x">{"a":1}</script><script type="module" src="/e.js"></script>';
    expect(inlineScriptsOf(built)).toEqual(['a()']);
  });
});

describe('the SPA fallback function', () => {
  // cloudfront-js-2.0 source, run here as plain JavaScript.
  const handler = new Function(`${spaFallbackSource}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  const rewrite = (uri: string) => handler({ request: { uri } }).uri;

  it('gives public pages their prerendered HTML, app routes the shell, other paths the not-found page, and leaves files alone', () => {
    expect(rewrite('/')).toBe('/pages/landing.html');
    expect(rewrite('/login')).toBe('/pages/login.html');
    expect(rewrite('/login/')).toBe('/pages/login.html');
    expect(rewrite('/about')).toBe('/pages/about.html');
    expect(rewrite('/register')).toBe('/index.html');
    expect(rewrite('/inbox')).toBe('/index.html');
    expect(rewrite('/inbox/01HZX/contact')).toBe('/index.html');
    expect(rewrite('/reset-password')).toBe('/index.html');
    expect(rewrite('/inboxes')).toBe('/pages/not-found.html');
    expect(rewrite('/pricing')).toBe('/pages/not-found.html');
    expect(rewrite('/about/team')).toBe('/pages/not-found.html');
    expect(rewrite('/constructor')).toBe('/pages/not-found.html');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');
    expect(rewrite('/assets/index-D4FhYdBM.js')).toBe('/assets/index-D4FhYdBM.js');
    expect(rewrite('/robots.txt')).toBe('/robots.txt');
  });

  it('answers every path as the local server does (htmlFileFor), and each page it names is in the build', () => {
    const paths = ['/', ...Object.keys(prerenderedPages), ...shellPaths, ...shellPaths.map((p) => `${p}/x/y`), '/pricing', '/a/b/', '/pages/login.html'];
    for (const path of paths) expect(rewrite(path), path).toBe(htmlFileFor(path));
    const dist = fileURLToPath(new URL('../web/dist', import.meta.url));
    if (existsSync(join(dist, 'pages'))) {
      for (const name of [...Object.values(prerenderedPages), notFoundPage]) expect(existsSync(join(dist, 'pages', `${name}.html`)), name).toBe(true);
    }
  });

  it('is the code of the CloudFront function, on the JS 2.0 runtime', () => {
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: spaFallbackSource,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });
});

describe('the upload of the web app', () => {
  it('puts hashed assets with a year of immutable caching first, never pruned, then the rest with no-cache, pruned', () => {
    const deployments = Object.entries(resourcesOf(template, 'Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(2);
    const [assetsId, assets] = deployments.find(([, d]) => (d.Properties.Include ?? []).includes(`${HASHED_ASSETS_DIR}/*`))!;
    const [, shell] = deployments.find(([id]) => id !== assetsId)!;
    expect(assets.Properties).toMatchObject({ Exclude: ['*'], Prune: false, SystemMetadata: { 'cache-control': immutableCacheControl } });
    expect(shell.Properties).toMatchObject({ Exclude: [`${HASHED_ASSETS_DIR}/*`], SystemMetadata: { 'cache-control': shellCacheControl } });
    expect(shell.Properties.Prune ?? true).toBe(true);
    expect((shell as unknown as { DependsOn: string[] }).DependsOn).toContain(assetsId);
    // No invalidation: the shell is never cached at the edge, assets never change.
    expect(shell.Properties.DistributionId).toBeUndefined();
  });

  it('fails synthesis, naming the build command, when the web app is not built', () => {
    expect(() => stackWith({}, { siteAssetPath: '/nonexistent/dist' })).toThrow(/npm run build:web/);
  });
});

describe('the WAF', () => {
  let edge: Template;
  beforeAll(() => {
    edge = stageTemplates('dev').edge;
  });

  it('is a CloudFront-scoped web ACL in its own stack in us-east-1', () => {
    expect(stacks.edge.region).toBe(EDGE_REGION);
    expect(stacks.main.region).toBe(DEFAULT_REGION);
    edge.resourceCountIs('AWS::WAFv2::WebACL', 1);
    edge.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    // The application stack waits for it (a dependency synthesis adds, for the cross-region read).
    const manifest = JSON.parse(readFileSync(join(stageTemplates('dev').assemblyDir, 'manifest.json'), 'utf8'));
    expect(manifest.artifacts[stacks.main.artifactId].dependencies).toContain(stacks.edge.artifactId);
  });

  it('blocks an address over the rate limit first, then applies the managed rule groups', () => {
    const rules = only(edge, 'AWS::WAFv2::WebACL')[1].Properties.Rules as Record<string, any>[];
    expect(rules[0]).toMatchObject({
      Priority: 0,
      Action: { Block: {} },
      Statement: { RateBasedStatement: { Limit: DEFAULT_RATE_LIMIT, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
    });
    expect(rules.slice(1, 1 + managedRuleGroups.length).map((r) => r.Statement.ManagedRuleGroupStatement.Name)).toEqual(managedRuleGroups.map((g) => g.name));
    // Then the common set's no-User-Agent block, outside the webhooks (infra/edge-behaviour.test.ts).
    expect(rules.slice(1 + managedRuleGroups.length).map((r) => r.Name)).toEqual(['NoUserAgentOutsideWebhooks']);
    for (const rule of rules) expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
  });

  it('leaves webhook paths out of the rate rule (Telegram and Stripe post for every tenant from a few addresses)', () => {
    const [rate] = only(edge, 'AWS::WAFv2::WebACL')[1].Properties.Rules as Record<string, any>[];
    expect(rate!.Statement.RateBasedStatement.ScopeDownStatement).toEqual({
      NotStatement: {
        Statement: {
          ByteMatchStatement: {
            FieldToMatch: { UriPath: {} },
            PositionalConstraint: 'STARTS_WITH',
            SearchString: '/api/webhooks/',
            TextTransformations: [{ Priority: 0, Type: 'NONE' }],
          },
        },
      },
    });
    expect(RATE_EXEMPT_PATH_PREFIX).toBe('/api/webhooks/');
    // Every incoming webhook (the handlers under functions/webhooks) is under that prefix; the
    // outbound webhooks' management (/webhook-subscriptions, the users' own) is not, and keeps the rule.
    const incoming = httpRoutes.filter((r) => r.handler.startsWith('../webhooks/'));
    expect(incoming.length).toBeGreaterThan(0);
    for (const route of incoming) expect(`/api${route.path}`.startsWith(RATE_EXEMPT_PATH_PREFIX), route.path).toBe(true);
    for (const route of httpRoutes.filter((r) => !r.handler.startsWith('../webhooks/'))) {
      expect(`/api${route.path}`.startsWith(RATE_EXEMPT_PATH_PREFIX), route.path).toBe(false);
    }
  });

  it('logs every request it inspects to aws-waf-logs-conversa-<stage>, tokens, signatures and query strings redacted, kept as the stage keeps logs', () => {
    const [logGroupId, logGroup] = only(edge, 'AWS::Logs::LogGroup');
    expect(logGroup.Properties.LogGroupName).toBe('aws-waf-logs-conversa-dev');
    expect(logGroup.Properties.RetentionInDays).toBe(7);
    const [, logging] = only(edge, 'AWS::WAFv2::LoggingConfiguration');
    expect(logging.Properties.ResourceArn).toEqual({ 'Fn::GetAtt': [only(edge, 'AWS::WAFv2::WebACL')[0], 'Arn'] });
    // WAF wants the group's ARN without CloudWatch's `:*` suffix.
    const destination = JSON.stringify(logging.Properties.LogDestinationConfigs);
    expect(destination).toContain(':log-group:');
    expect(destination).toContain(logGroupId);
    expect(destination).not.toContain(':*');
    // The query string too: browsers put the realtime link's one-time ticket there (`/ws?ticket=`).
    expect(logging.Properties.RedactedFields).toEqual([{ QueryString: {} }, ...redactedHeaders.map((name) => ({ SingleHeader: { Name: name } }))]);
    expect(redactedHeaders).toContain('authorization');
    const prodEdge = stageTemplates('prod').edge;
    expect(only(prodEdge, 'AWS::Logs::LogGroup')[1]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { LogGroupName: 'aws-waf-logs-conversa-prod', RetentionInDays: 90 },
    });
  });

  it('only counts the common rules that read message bodies, and its no-User-Agent rule (blocked by ours outside webhooks), and takes the rate limit from context', () => {
    const rules = only(edge, 'AWS::WAFv2::WebACL')[1].Properties.Rules as Record<string, any>[];
    const common = rules.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!;
    expect(common.OverrideAction).toEqual({ None: {} });
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toEqual(
      ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY', 'NoUserAgent_HEADER'].map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
    );
    const limited = Template.fromStack(appWith({ wafRateLimit: '500' }).edge);
    expect((only(limited, 'AWS::WAFv2::WebACL')[1].Properties.Rules as Record<string, any>[])[0]!.Statement.RateBasedStatement.Limit).toBe(500);
  });
});

describe('stages', () => {
  it('name the stacks after the stage, dev unless told, and refuse unknown stages', () => {
    expect([stacks.edge.stackName, stacks.main.stackName]).toEqual(['ConversaEdge-dev', 'Conversa-dev']);
    const prod = appWith({ stage: 'prod' });
    expect([prod.edge.stackName, prod.main.stackName]).toEqual(['ConversaEdge-prod', 'Conversa-prod']);
    expect(() => appWith({ stage: 'staging' })).toThrow(/Unknown stage "staging": use -c stage=dev\|prod/);
  });

  it('in dev, let the table and the media bucket go with the stack (emptied first), without PITR', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: false, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } })],
      }),
    });
    const media = Object.entries(resourcesOf(template, 'AWS::S3::Bucket')).find(([, b]) => b.Properties.CorsConfiguration)!;
    expect(media[1].DeletionPolicy).toBe('Delete');
    template.hasResourceProperties('Custom::S3AutoDeleteObjects', { BucketName: { Ref: media[0] } });
  });

  it('in prod, keep and protect the table and the media bucket, and keep logs', () => {
    const prod = stageTemplates('prod').main;
    prod.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      }),
    });
    const [mediaId, media] = Object.entries(resourcesOf(prod, 'AWS::S3::Bucket')).find(([, b]) => b.Properties.CorsConfiguration)!;
    expect(media.DeletionPolicy).toBe('Retain');
    expect(JSON.stringify(media.Properties.BucketName)).toContain('conversa-prod-media-');
    // The media bucket's access logs live as long as the files they describe.
    const logsId = (media.Properties.LoggingConfiguration as { DestinationBucketName: { Ref: string } }).DestinationBucketName.Ref;
    expect(resourcesOf(prod, 'AWS::S3::Bucket')[logsId]!.DeletionPolicy).toBe('Retain');
    // Only the site bucket (a build artefact) is emptied on deletion.
    const autoDeleted = Object.values(resourcesOf(prod, 'Custom::S3AutoDeleteObjects')).map((r) => r.Properties.BucketName.Ref);
    expect(autoDeleted).toHaveLength(1);
    expect(autoDeleted).not.toContain(mediaId);
    expect(autoDeleted).not.toContain(logsId);
    for (const [, group] of Object.entries(resourcesOf(prod, 'AWS::Logs::LogGroup'))) {
      expect(group.DeletionPolicy).toBe('Retain');
      expect(group.Properties.RetentionInDays).toBe(90);
    }
  });

  it('tag the resources with the stage', () => {
    const tag = { Key: 'conversa:stage', Value: 'dev' };
    for (const type of ['AWS::S3::Bucket', 'AWS::CloudFront::Distribution', 'AWS::Lambda::Function', 'AWS::SQS::Queue']) {
      // CDK's own providers are raw resources that tags do not reach; ours all carry it.
      const ours = Object.entries(resourcesOf(template, type)).filter(
        ([, r]) => type !== 'AWS::Lambda::Function' || /^(http|ws|streams|queues)\//.test(r.Properties.Description),
      );
      expect(ours.length, type).toBeGreaterThan(0);
      for (const [id, resource] of ours) expect(resource.Properties.Tags, id).toContainEqual(tag);
    }
  });
});

describe('the resource budget', () => {
  it('keeps every template well under CloudFormation’s 500 resources: the HTTP routes are a nested stack', () => {
    // Each template as `cdk synth` writes it (the ones above are merged into one by wholeTemplate).
    const { assemblyDir } = stageTemplates('dev');
    const counts = [stacks.main, ...stacks.main.node.findAll().filter(NestedStack.isNestedStack)].map((stack) => {
      const resources = JSON.parse(readFileSync(join(assemblyDir, stack.templateFile), 'utf8')).Resources as Record<string, unknown>;
      return [stack.node.path, Object.keys(resources).length] as const;
    });
    expect(counts.map(([path]) => path)).toEqual(['Conversa-dev', 'Conversa-dev/Http/Routes']);
    // The HTTP functions (one per set of rights) and every route are one nested stack (infra/constructs/http-api.ts).
    for (const [path, count] of counts) expect(count, path).toBeLessThan(450);
  });
});
