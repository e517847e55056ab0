import type { App } from 'aws-cdk-lib';
import { EdgeStack } from './edge-stack.ts';
import { ConversaStack, type ConversaStackProps } from './stack.ts';
import { stackName, stageSettings } from './stage.ts';

/** Where the application lives when neither context `region` nor the CLI's environment says: São Paulo, near its users. */
export const DEFAULT_REGION = 'sa-east-1';

export interface ConversaApp {
  readonly edge: EdgeStack;
  readonly main: ConversaStack;
}

/**
 * The stacks of one stage: `ConversaEdge-<stage>` in us-east-1 (the WAF web ACL CloudFront
 * requires there) and `Conversa-<stage>` in the application's region, which reads the web ACL's ARN
 * across regions. `cdk deploy Conversa-prod -c stage=prod` deploys the edge stack first.
 */
export function defineConversa(app: App, props: Omit<ConversaStackProps, 'stage' | 'webAclArn' | 'env'> = {}): ConversaApp {
  const stage = stageSettings(app.node.tryGetContext('stage'));
  applyStageContext(app, stage.name);
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const contextRegion: unknown = app.node.tryGetContext('region');
  // The region must be explicit for the cross-region reference; the account may stay unknown
  // (offline synth with no credentials).
  const region = typeof contextRegion === 'string' && contextRegion ? contextRegion : (process.env.CDK_DEFAULT_REGION ?? DEFAULT_REGION);
  const edge = new EdgeStack(app, stackName('ConversaEdge', stage.name), {
    stage,
    description: `Conversa (${stage.name}): the WAF web ACL of the CloudFront distribution`,
    env: { account },
    ...(rateLimitOf(app) ? { rateLimit: rateLimitOf(app) } : {}),
  });
  const main = new ConversaStack(app, stackName('Conversa', stage.name), {
    ...props,
    description: `Conversa (${stage.name}): multi-tenant WhatsApp and Telegram inbox`,
    env: { account, region },
    stage: stage.name,
    webAclArn: edge.webAcl.attrArn,
  });
  return { edge, main };
}

/**
 * Context `stages`: a block of context per stage, kept in cdk.json (`"stages": { "prod": {
 * "domainName": "…", "certificateArn": "…", "mailFrom": "…" } }`), so `cdk deploy --all -c stage=prod`
 * alone deploys prod as configured: a forgotten `-c` cannot drop the domain or the sender, and the
 * values of one stage never reach another. A value given on the command line wins.
 */
function applyStageContext(app: App, stage: string): void {
  const blocks: unknown = app.node.tryGetContext('stages');
  if (blocks === undefined) return;
  const isBlock = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isBlock(blocks)) throw new Error('Context stages must be an object of stage name: { key: value }');
  const block = blocks[stage];
  if (block === undefined) return;
  if (!isBlock(block) || 'stage' in block || 'stages' in block || Object.values(block).some((v) => !['string', 'number', 'boolean'].includes(typeof v))) {
    throw new Error(`Context stages.${stage} must be an object of plain context values (not stage or stages)`);
  }
  for (const [key, value] of Object.entries(block)) {
    if (app.node.tryGetContext(key) === undefined) app.node.setContext(key, value);
  }
}

/** Context `wafRateLimit`: requests per address per five minutes. */
function rateLimitOf(app: App): number | undefined {
  const value: unknown = app.node.tryGetContext('wafRateLimit');
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 10) throw new Error(`Context wafRateLimit must be a whole number of at least 10, not ${JSON.stringify(value)}`);
  return limit;
}
