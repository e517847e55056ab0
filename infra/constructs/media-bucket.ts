import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

export interface MediaBucketProps {
  /** Origin of the web app (scheme and host, no path): the only origin browsers may PUT and GET from. */
  readonly appOrigin: string;
}

/**
 * Uploads and media. Private: browsers reach objects only through presigned URLs, which is why the
 * bucket needs CORS for the app origin but no public access at all. Keys are always
 * `accounts/<accountId>/files/...`; tenant isolation comes from the handlers choosing the key from
 * the verified token.
 */
export class MediaBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: MediaBucketProps) {
    super(scope, id);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      cors: [
        {
          allowedOrigins: [props.appOrigin],
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      lifecycleRules: [{ id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}

/** `https://app.example.com/some/path` -> `https://app.example.com` (CORS matches origins, not URLs). */
export function originOf(url: string): string {
  return new URL(url).origin;
}
