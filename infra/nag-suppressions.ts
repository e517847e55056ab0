/**
 * Every cdk-nag (AwsSolutions) finding this project accepts, each acknowledged on the construct
 * that owns the resource (cdk-nag 3 reads `Validations.of(construct).acknowledge` on the resource
 * and its ancestors), with one line saying why it is true here. Findings with a detail
 * (`AwsSolutions-IAM5[Resource::…]`) are acknowledged one detail at a time, so a new wildcard is a
 * new finding. `infra/nag.test.ts` fails on anything else. ADR-0049.
 */
import { type CfnElement, Stack, Token, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type { IConstruct } from 'constructs';
import { CONSUMERS_THAT_MANAGE_CONNECTIONS, type ConversaStack } from './stack.ts';

/** Rule (without the pack's prefix) -> reason. */
type Reasons = Readonly<Record<string, string>>;

function acknowledge(scope: IConstruct, reasons: Reasons): void {
  for (const [id, reason] of Object.entries(reasons)) Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason });
}

/** How cdk-nag writes a resource's logical id in a finding: `<DataTableFDBAD0F2>`. */
function ref(construct: IConstruct): string {
  const element = construct.node.defaultChild as CfnElement;
  return `<${Stack.of(element).resolve(Stack.of(element).getLogicalId(element))}>`;
}
/** A pseudo parameter as cdk-nag writes it when the stack's environment leaves it open: `<AWS::Region>`. */
const literal = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
const arnOf = (construct: IConstruct) => ref(construct).replace(/>$/, '.Arn>');

/** What `bucket.grantReadWrite` writes, for a bucket whose ARN is `bucketArn`. */
const readWriteGrant = (bucketArn: string, reason: string): Reasons =>
  Object.fromEntries(
    ['Action::s3:Abort*', 'Action::s3:DeleteObject*', 'Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*', `Resource::${bucketArn}/*`].map(
      (finding) => [`IAM5[${finding}]`, reason],
    ),
  );

export function acknowledgeNagFindings(stack: ConversaStack, options: { readonly customDomain: boolean; readonly sesIdentity: boolean }): void {
  const table = stack.table.table;
  const media = stack.media.bucket;
  const tableIndexes = `IAM5[Resource::${arnOf(table)}/index/*]`;
  const mediaGrant = readWriteGrant(
    arnOf(media),
    "CDK's grantReadWrite on the media bucket: objects live under per-tenant keys the handler picks from the token, which IAM cannot tell apart",
  );

  // ---- Functions (NodeFunction): every HTTP, WebSocket, stream and queue function.
  const everyFunction: Reasons = {
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      "CDK's default Lambda execution policy: CreateLogGroup/CreateLogStream/PutLogEvents and nothing else",
    L1: 'Node.js 24, the newest runtime aws-cdk-lib offers (infra/day-one.test.ts keeps it so); cdk-nag may know a newer name than Lambda has',
    [tableIndexes]: "DynamoDB grants include index/* by design: handlers query the table's global secondary indexes",
  };
  const xrayOnly = { 'IAM5[Resource::*]': "X-Ray's PutTraceSegments/PutTelemetryRecords (active tracing) take no resource" };
  for (const fn of stack.httpApi.groups.values()) {
    acknowledge(fn, {
      ...everyFunction,
      ...mediaGrant,
      'IAM5[Resource::*]': options.sesIdentity
        ? xrayOnly['IAM5[Resource::*]']
        : "X-Ray's trace actions take no resource; ses:SendEmail covers any identity until context sesIdentity names one (SES refuses unverified senders)",
    });
  }
  for (const fn of stack.webSocketApi.functions.values()) acknowledge(fn, { ...everyFunction, ...xrayOnly });
  for (const fn of [...stack.streamConsumers.functions.values(), ...stack.queueConsumers.functions.values()]) {
    acknowledge(fn, { ...everyFunction, ...xrayOnly, ...mediaGrant });
  }
  // The scheduled resume: its own grants are scoped (Query on gsi1, UpdateItem on the table).
  acknowledge(stack.jobResumer.function, {
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
      everyFunction['IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]']!,
    L1: everyFunction.L1!,
    ...xrayOnly,
  });
  // The lifecycle's timer poller: the table's read and write (timers, conversations, settings, names), nothing else.
  acknowledge(stack.timerFirer.function, { ...everyFunction, ...xrayOnly });
  acknowledge(stack.campaignRunner.function, { ...everyFunction, ...xrayOnly });
  acknowledge(stack.productsRefresher.function, { ...everyFunction, ...xrayOnly });
  // The webhooks' retries: the table, the data key (a subscription's secret) and SES (the admins' e-mail when one is switched off).
  acknowledge(stack.webhookRetries.function, {
    ...everyFunction,
    'IAM5[Resource::*]': options.sesIdentity
      ? xrayOnly['IAM5[Resource::*]']
      : "X-Ray's trace actions take no resource; ses:SendEmail covers any identity until context sesIdentity names one (SES refuses unverified senders)",
  });
  for (const name of CONSUMERS_THAT_MANAGE_CONNECTIONS) {
    const fn = stack.streamConsumers.functions.get(name);
    if (!fn) continue;
    acknowledge(fn, {
      [`IAM5[Resource::arn:${literal(stack.partition, 'Partition')}:execute-api:${literal(stack.region, 'Region')}:<AWS::AccountId>:${ref(stack.webSocketApi.api)}/ws/*/@connections/*]`]:
        "CDK's grantManagementApiAccess: any connection of the ws stage, since connection ids are made at runtime",
    });
  }

  // ---- APIs: no API Gateway authorizer anywhere (ADR-0001).
  for (const route of stack.httpApi.node.findAll().filter((c) => c instanceof apigw.HttpRoute)) {
    acknowledge(route, {
      APIG4:
        'HTTP API JWT auth is done in the handler (our own HS256 tokens, revocable through a table read), not an API Gateway authorizer; public routes are public',
    });
  }
  for (const route of stack.webSocketApi.node.findAll().filter((c) => c instanceof apigw.WebSocketRoute)) {
    acknowledge(route, {
      APIG4: '$connect checks the token query parameter itself (revocable tokens need a table read); the other routes only run on a connection it accepted',
    });
  }
  acknowledge(stack.webSocketApi.stage, {
    APIG1: 'WebSocket stage logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), which one stage stack must not own',
  });
  // Stream consumers' dead-letter queues are on-failure destinations of event source mappings.
  for (const dlq of stack.streamConsumers.deadLetterQueues.values()) {
    acknowledge(dlq, { SQS3: "This queue is a stream mapping's on-failure destination, a DLQ cdk-nag only recognises from redrive policies" });
  }

  // ---- Secrets.
  acknowledge(stack.jwtSecret, {
    SMG4: 'Rotation would sign every session out until tokens carry a key id and two keys are accepted (ADR-0004)',
  });
  acknowledge(stack.dataKey, { SMG4: 'Re-keying means rewriting every sealed channel credential; no rotation function for that yet' });
  acknowledge(stack.originSecret, {
    SMG4: 'CloudFront reads it into its origin header at deploy time only: a rotation would refuse every request until the next deploy',
  });
  for (const secret of [stack.stripeSecretKey, stack.stripeWebhookSecret]) {
    acknowledge(secret, { SMG4: 'The value is issued by Stripe and put in by operators; Secrets Manager cannot rotate it' });
  }
  if (stack.metaAppSecret) {
    acknowledge(stack.metaAppSecret, { SMG4: 'The value is issued by Meta (the app secret) and put in by operators; Secrets Manager cannot rotate it' });
  }

  // ---- The channel worker (ADR-0080).
  const worker = stack.channelWorker;
  acknowledge(worker.cluster, { ECS4: 'Container Insights off on purpose: per-task metrics are billed, and the service CPU/memory metrics come free' });
  acknowledge(worker.taskDefinition, {
    ECS2: 'Only non-secret settings (names, URLs, ARNs, sizes) are plain environment; the data key is read from Secrets Manager by ARN',
  });
  acknowledge(worker.taskDefinition.taskRole, {
    [tableIndexes]: everyFunction[tableIndexes]!,
    ...mediaGrant,
    [`IAM5[Resource::arn:<AWS::Partition>:sqs:<AWS::Region>:<AWS::AccountId>:${worker.fleetPrefix}*]`]:
      'Each task makes, routes to, drains and deletes the queues of the fleet, named by task at run time: only names under the fleet prefix',
  });
  acknowledge(worker.taskDefinition.obtainExecutionRole(), {
    'IAM5[Resource::*]': "ecr:GetAuthorizationToken takes no resource (CDK's image pull grant)",
  });

  // ---- The web app (ADR-0045).
  const site = stack.site;
  acknowledge(site.distribution, {
    CFR1: 'A multi-tenant inbox sold to customers anywhere: no country to block',
    ...(options.customDomain
      ? {}
      : { CFR4: "CloudFront's default *.cloudfront.net certificate has a fixed policy; with a custom domain the floor is TLSv1.2_2021" }),
  });
  acknowledge(site.bucket, { S1: 'Build output read only by CloudFront through origin access control; requests are seen at the distribution' });
  acknowledge(stack.media.accessLogs, { S1: "The media bucket's access-log bucket: logging it would log its own log deliveries" });
  acknowledge(site.accessLogs, { S1: "CloudFront's access-log bucket: logging it would log its own log deliveries" });
  // CDK's BucketDeployment provider: one singleton function per stack and memory size.
  for (const provider of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    acknowledge(provider, {
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        "CDK's BucketDeployment provider function: its role is set by CDK",
      L1: "CDK's BucketDeployment provider function: runtime set by CDK",
      ...readWriteGrant(arnOf(site.bucket), "CDK's BucketDeployment provider: writes and prunes the site bucket's objects"),
      [`IAM5[Resource::arn:aws:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${literal(stack.region, 'Region')}/*]`]:
        "CDK's BucketDeployment provider: reads the build's zip from the bootstrap asset bucket",
    });
  }
}
