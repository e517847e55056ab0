import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * Defines `require` inside the ESM bundle, for CommonJS dependencies that call it (esbuild keeps
 * their `require('node:...')` calls as they are).
 */
const esmRequireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export interface NodeFunctionProps {
  /** Absolute path of the handler module (a `.ts` file exporting `handler`). */
  readonly entry: string;
  /** Repository root: holds package.json (its `imports` aliases) and package-lock.json. */
  readonly projectRoot: string;
  readonly description?: string;
  readonly environment?: Record<string, string>;
  /** @default 10 seconds */
  readonly timeout?: Duration;
}

/**
 * With bundling on, fails synthesis naming every entry that does not exist (`source` is the list
 * that named them, for the message). With bundling off, missing entries get placeholders instead.
 */
export function requireEntries(scope: Construct, entries: readonly string[], source: string): void {
  if (!Stack.of(scope).bundlingRequired) return;
  const missing = entries.filter((entry) => !existsSync(entry));
  if (missing.length > 0) {
    throw new Error(`Handler modules listed in ${source} do not exist:\n  ${missing.join('\n  ')}`);
  }
}

/**
 * The Lambda runtime of every function of ours: the newest Node.js aws-cdk-lib offers (Node 22's
 * support ends in 2027; infra/day-one.test.ts fails when a newer one appears and this is not moved).
 */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
/** esbuild's target for that runtime. */
const BUNDLE_TARGET = 'node24';

/**
 * A Lambda function with the project's defaults: Node.js 24 (`LAMBDA_RUNTIME`) on arm64, an ESM bundle built by the
 * local esbuild (minified, with source maps), 512 MB, 10 s unless told otherwise, X-Ray active, a log group kept for one
 * month.
 *
 * When the stack is synthesised without bundling (assertion tests, `cdk ls`) and the entry file
 * does not exist yet, the function gets an inline placeholder instead, so the template can be
 * tested while handlers are being written. With bundling on, a missing entry fails synthesis.
 */
export class NodeFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: NodeFunctionProps) {
    const stack = Stack.of(scope);
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const placeholder = !stack.bundlingRequired && !existsSync(props.entry);

    super(scope, id, {
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: lambda.Tracing.ACTIVE,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      ...(placeholder
        ? {
            code: lambda.Code.fromInline(`exports.handler = async () => { throw new Error('not built: ${relative(props.projectRoot, props.entry)}'); };`),
            handler: 'index.handler',
          }
        : {
            entry: props.entry,
            handler: 'handler',
            projectRoot: props.projectRoot,
            depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
            bundling: {
              format: OutputFormat.ESM,
              target: BUNDLE_TARGET,
              minify: true,
              sourceMap: true,
              sourceMapMode: SourceMapMode.DEFAULT,
              sourcesContent: false,
              mainFields: ['module', 'main'],
              banner: esmRequireBanner,
              // The SDK is bundled, not taken from the runtime, so the cloud runs the versions the
              // lock file pins: the ones the tests ran against locally.
              bundleAwsSDK: true,
            },
          }),
    });
  }
}
