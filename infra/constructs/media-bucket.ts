import { Aws, Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** How long the media bucket's server access logs are kept. */
export const ACCESS_LOG_DAYS = 90;

export interface MediaBucketProps {
  /**
   * The bucket's physical name. Given (not generated) so that the site's Content-Security-Policy
   * can name the bucket's origin without depending on the bucket, whose CORS depends on the
   * distribution that carries that policy.
   */
  readonly bucketName: string;
  /** RETAIN keeps the bucket and its files when the stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
  /** Empty the bucket on stack deletion (a custom resource), so DESTROY can succeed. */
  readonly autoDeleteObjects: boolean;
}

/**
 * Uploads and media. Private: browsers reach objects only through presigned URLs, which is why the
 * bucket needs CORS for the app origin (`allowBrowsersFrom`) but no public access at all. Keys are always
 * `accounts/<accountId>/files/...`; tenant isolation comes from the handlers choosing the key from
 * the verified token.
 */
export class MediaBucket extends Construct {
  readonly bucket: s3.Bucket;
  /** S3 server access logs of the media bucket (who fetched or stored which file, presigned or not), kept `ACCESS_LOG_DAYS`. */
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: MediaBucketProps) {
    super(scope, id);

    // Same lifetime as the files it describes: retained with them in prod, emptied and deleted in dev.
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Server access logs can only be delivered to SSE-S3 buckets.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(ACCESS_LOG_DAYS) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.autoDeleteObjects,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: props.bucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      lifecycleRules: [{ id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.autoDeleteObjects,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'media/',
    });
  }

  /**
   * Lets pages of these origins (scheme and host, no path: the web app's) PUT, GET and HEAD with
   * presigned URLs. Called once the site exists, since its origin is the distribution's domain.
   */
  allowBrowsersFrom(appOrigins: readonly string[]): void {
    this.bucket.addCorsRule({
      allowedOrigins: [...appOrigins],
      allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });
  }
}

/** `https://app.example.com/some/path` -> `https://app.example.com` (CORS matches origins, not URLs). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * `conversa-dev-media-<account>-<region>`: unique per stage, account and region (bucket names are
 * global), at most 63 characters, and made of pseudo parameters only, so it names no resource.
 */
export function mediaBucketName(stage: string): string {
  return `conversa-${stage}-media-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

/** The origin of a bucket's virtual-hosted URLs, which the S3 presigner produces: `https://<bucket>.s3.<region>.<suffix>`. */
export function bucketOrigin(bucketName: string): string {
  return `https://${bucketName}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;
}
