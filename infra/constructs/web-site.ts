import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { notFoundPage, prerenderDir, prerenderedPages, shellFile, shellPaths } from '#web/app/static-routes.ts';
import { contentSecurityPolicy, permissionsPolicy, strictTransportSecurity } from '../site-headers.ts';
import { VIEWER_ADDRESS_HEADER } from '#functions/lib/caller-address.ts';
import { API_PREFIX } from './http-api.ts';
import { WEBSOCKET_STAGE } from './websocket-api.ts';

/** Path of the realtime endpoint on the site's origin (`wss://<site>/ws`): the WebSocket API's stage. */
const WEBSOCKET_PATH = `/${WEBSOCKET_STAGE}`;

/** Vite's output folder for hashed, immutable files (`web/dist/assets`). */
export const HASHED_ASSETS_DIR = 'assets';

/** The build's precompressed copies (web/build/precompress.ts), which only the local server sends. */
export const precompressedCopies = ['*.br', '*.gz'];

export const immutableCacheControl = 'public, max-age=31536000, immutable';
export const shellCacheControl = 'no-cache';

/**
 * The viewer-request function of the site's default behaviour: which file of the bucket answers a
 * path, as `htmlFileFor` (web/src/app/static-routes.ts) decides for the local server. Paths of files
 * (`/favicon.svg`) are served as they are; a public page gets its prerendered HTML
 * (`/login` → `/pages/login.html`), the signed-in app's paths the app shell (`/index.html`), any
 * other path the prerendered not-found page (the router's 404, answered with 200 as before).
 * Doing this here rather than with the distribution's error responses keeps a 404 from `/api` a
 * 404 (error responses apply to every behaviour). cloudfront-js-2.0; kept in ES5 style, which
 * that runtime runs; the tables are written into it from static-routes.ts.
 */
export const spaFallbackSource = `var pages = ${JSON.stringify(prerenderedPages)};
var shellPaths = ${JSON.stringify(shellPaths)};
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var lastSegment = uri.substring(uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') !== -1) return request;
  var path = uri.length > 1 && uri.charAt(uri.length - 1) === '/' ? uri.substring(0, uri.length - 1) : uri;
  if (Object.prototype.hasOwnProperty.call(pages, path)) {
    request.uri = '/${prerenderDir}/' + pages[path] + '.html';
    return request;
  }
  for (var i = 0; i < shellPaths.length; i++) {
    var prefix = shellPaths[i];
    if (path === prefix || path.indexOf(prefix + '/') === 0) {
      request.uri = '${shellFile}';
      return request;
    }
  }
  request.uri = '/${prerenderDir}/${notFoundPage}.html';
  return request;
}`;

/**
 * The viewer-request function of `/api/*`: the viewer's address in `VIEWER_ADDRESS_HEADER`, written
 * over whatever the viewer sent. Behind CloudFront the API sees an edge server's address; the managed
 * origin request policy API Gateway needs (AllViewerExceptHostHeader) forwards viewer headers, and
 * one that adds CloudFront-Viewer-Address would have to forward Host too, which API Gateway refuses.
 */
export const viewerAddressSource = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

export interface WebSiteProps {
  /** The built web app (`web/dist`): `index.html` at its root, hashed files under `assets/`. */
  readonly assetPath: string;
  /** The HTTP API serving `/api/*` (its routes already carry the prefix). */
  readonly httpApiId: string;
  /**
   * Headers CloudFront adds to every request it sends the HTTP API and to the WebSocket API's
   * upgrade requests: the origin secret their functions check (functions/lib/caller-address.ts,
   * `$connect`), so neither API's own URL leads anywhere.
   */
  readonly apiOriginHeaders?: Record<string, string>;
  /** The WebSocket API, whose stage is `WEBSOCKET_STAGE`. */
  readonly webSocketApiId: string;
  /** The media bucket's origin, for the Content-Security-Policy. */
  readonly mediaOrigin: string;
  /** Whether the CSP allows Meta's JavaScript SDK (an operator's Meta app for Embedded Signup). @default false */
  readonly metaSdk?: boolean;
  /** ARN of a WAFv2 web ACL of scope CLOUDFRONT (it lives in us-east-1). */
  readonly webAclArn?: string;
  /** A custom domain for the site and its certificate (ACM, us-east-1). */
  readonly domain?: { readonly name: string; readonly certificate: acm.ICertificate };
  /** What becomes of the distribution's access logs when the stack is deleted (the stage's log policy). */
  readonly logRemovalPolicy: RemovalPolicy;
}

/** How long CloudFront's access logs are kept. */
export const SITE_LOG_DAYS = 90;
/** Where in the log bucket CloudFront writes. */
export const SITE_LOG_PREFIX = 'cloudfront/';

/**
 * The web app on one origin: a private S3 bucket behind CloudFront (origin access control), with
 * `/api/*` sent to the HTTP API and `/ws` to the WebSocket API, security headers on every answer,
 * and the built `web/dist` uploaded by the stack itself. Hashed assets are cached for a year at
 * the edge and in browsers; the shell (`index.html` and the other root files) is revalidated on
 * every request, so a deploy shows at the next page load without an invalidation.
 */
export class WebSite extends Construct {
  readonly bucket: s3.Bucket;
  /** CloudFront's standard access logs (every request: address, path, status, edge), kept `SITE_LOG_DAYS`. */
  readonly accessLogs: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly responseHeaders: cloudfront.ResponseHeadersPolicy;
  readonly shellCachePolicy: cloudfront.CachePolicy;
  readonly assetsCachePolicy: cloudfront.CachePolicy;
  readonly spaFallback: cloudfront.Function;
  readonly viewerAddress: cloudfront.Function;
  /** The custom domain when one is given, else the distribution's own (`d111111abcdef8.cloudfront.net`). */
  readonly domainName: string;
  /** `https://<domainName>`: the app's origin, with no trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebSiteProps) {
    super(scope, id);

    if (!existsSync(join(props.assetPath, 'index.html'))) {
      throw new Error(`The web app is not built: ${join(props.assetPath, 'index.html')} is missing (npm run build:web)`);
    }

    // Build output only: rebuilt from the repository on every deploy, so it is never retained.
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // CloudFront's standard logs are delivered with an ACL grant, so this bucket, unlike the others,
    // keeps ACLs enabled (object writer); nothing in it is public.
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(SITE_LOG_DAYS) }],
      removalPolicy: props.logRemovalPolicy,
      autoDeleteObjects: props.logRemovalPolicy === RemovalPolicy.DESTROY,
    });

    this.responseHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Conversa: CSP, HSTS, frame, content-type, referrer and permissions policies',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy({ mediaOrigin: props.mediaOrigin, metaSdk: props.metaSdk }), override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(strictTransportSecurity.maxAgeSeconds),
          includeSubdomains: strictTransportSecurity.includeSubdomains,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
      customHeadersBehavior: { customHeaders: [{ header: 'Permissions-Policy', value: permissionsPolicy, override: true }] },
    });

    // The shell follows the Cache-Control the deployment gives it (no-cache): TTL 0 unless told.
    this.shellCachePolicy = new cloudfront.CachePolicy(this, 'ShellCachePolicy', {
      comment: 'Conversa app shell: revalidated on every request',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    // Hashed files never change: a year at the edge whatever the origin says. The cache key holds
    // the normalised Accept-Encoding (br, gzip or neither), so CloudFront compresses each file once
    // per coding and keeps the variants apart; no headers, cookies or query strings otherwise.
    this.assetsCachePolicy = new cloudfront.CachePolicy(this, 'AssetsCachePolicy', {
      comment: 'Conversa hashed assets: immutable, compressed with Brotli or gzip',
      minTtl: Duration.days(365),
      defaultTtl: Duration.days(365),
      maxTtl: Duration.days(365),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    this.spaFallback = new cloudfront.Function(this, 'SpaFallback', {
      comment: 'Public pages get their prerendered HTML, app routes the shell',
      code: cloudfront.FunctionCode.fromInline(spaFallbackSource),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    this.viewerAddress = new cloudfront.Function(this, 'ViewerAddress', {
      comment: "The viewer's address for the API's rate limits",
      code: cloudfront.FunctionCode.fromInline(viewerAddressSource),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const siteOrigin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    const apiDomain = (apiId: string) => `${apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    const toApi = {
      origin: new origins.HttpOrigin(apiDomain(props.httpApiId), {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        ...(props.apiOriginHeaders ? { customHeaders: props.apiOriginHeaders } : {}),
      }),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Everything the viewer sent (Authorization, query strings, Stripe's signature header) but
      // Host, which API Gateway needs to be its own.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.responseHeaders,
      compress: true,
    } satisfies cloudfront.BehaviorOptions;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Conversa web app (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // South America's edge locations are only in the "all" class.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: SITE_LOG_PREFIX,
      logIncludesCookies: false,
      // The TLS floor applies to a custom certificate only (CloudFront's own domain has a fixed policy).
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: props.domain.certificate,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: siteOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: this.shellCachePolicy,
        responseHeadersPolicy: this.responseHeaders,
        functionAssociations: [{ function: this.spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: {
        [`/${HASHED_ASSETS_DIR}/*`]: {
          origin: siteOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: this.assetsCachePolicy,
          responseHeadersPolicy: this.responseHeaders,
          compress: true,
        },
        [`${API_PREFIX}/*`]: {
          ...toApi,
          functionAssociations: [{ function: this.viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
        // The WebSocket API's stage is named `ws`, so the viewer's path is the stage's path as it
        // is: no origin path, no rewriting. CloudFront passes the upgrade through.
        [WEBSOCKET_PATH]: {
          ...toApi,
          // The same secret on the upgrade request: `$connect` refuses one without it.
          origin: new origins.HttpOrigin(apiDomain(props.webSocketApiId), {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            ...(props.apiOriginHeaders ? { customHeaders: props.apiOriginHeaders } : {}),
          }),
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          compress: false,
        },
      },
    });

    // The build's .br/.gz copies are for the local server: CloudFront compresses on its own.
    const siteFiles = s3deploy.Source.asset(props.assetPath, { exclude: precompressedCopies });
    // Hashed files first, never pruned: a browser still running the previous shell can load its
    // chunks after the deploy. Then the rest (the shell), with pruning of what the build dropped.
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [siteFiles],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: [`${HASHED_ASSETS_DIR}/*`],
      cacheControl: [s3deploy.CacheControl.fromString(immutableCacheControl)],
      prune: false,
      outputObjectKeys: false,
      memoryLimit: 512,
    });
    const shell = new s3deploy.BucketDeployment(this, 'DeployShell', {
      sources: [siteFiles],
      destinationBucket: this.bucket,
      exclude: [`${HASHED_ASSETS_DIR}/*`],
      cacheControl: [s3deploy.CacheControl.fromString(shellCacheControl)],
      prune: true,
      outputObjectKeys: false,
      memoryLimit: 512,
    });
    shell.node.addDependency(assets);

    this.domainName = props.domain?.name ?? this.distribution.distributionDomainName;
    this.url = `https://${this.domainName}`;
  }
}
