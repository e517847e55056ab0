import { type IAspect, RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

/** The stages a Conversa deployment can be: `cdk deploy -c stage=prod`. */
export const stages = ['dev', 'prod'] as const;
export type StageName = (typeof stages)[number];

/** Without `-c stage=…` a deploy is a dev stack: nothing reaches prod by accident. */
export const defaultStage: StageName = 'dev';

/** What differs between stages. Everything else is the same template. */
export interface StageSettings {
  readonly name: StageName;
  /** Customer data (table, media bucket): kept, and protected from deletion, in prod only. */
  readonly dataRemovalPolicy: RemovalPolicy;
  readonly tableDeletionProtection: boolean;
  /** Point-in-time recovery of the table (billed per GB). */
  readonly pointInTimeRecovery: boolean;
  /** Empty the media bucket when the stack is deleted (a dev stack can go away whole). */
  readonly autoDeleteMedia: boolean;
  /** How long every log group keeps its events. */
  readonly logRetention: logs.RetentionDays;
  /** What happens to log groups when the stack is deleted. */
  readonly logRemovalPolicy: RemovalPolicy;
}

const settings: Record<StageName, StageSettings> = {
  dev: {
    name: 'dev',
    dataRemovalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    pointInTimeRecovery: false,
    autoDeleteMedia: true,
    logRetention: logs.RetentionDays.ONE_WEEK,
    logRemovalPolicy: RemovalPolicy.DESTROY,
  },
  prod: {
    name: 'prod',
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    pointInTimeRecovery: true,
    autoDeleteMedia: false,
    logRetention: logs.RetentionDays.THREE_MONTHS,
    logRemovalPolicy: RemovalPolicy.RETAIN,
  },
};

/** The settings of a stage; anything but `dev` or `prod` is refused with the valid names. */
export function stageSettings(name: unknown = defaultStage): StageSettings {
  if (typeof name === 'string' && name in settings) return settings[name as StageName];
  throw new Error(`Unknown stage ${JSON.stringify(name)}: use -c stage=${stages.join('|')}`);
}

/** `Conversa-dev`, `ConversaEdge-prod`: stack names carry the stage, so both can live in one account. */
export function stackName(base: string, stage: StageName): string {
  return `${base}-${stage}`;
}

/**
 * Applies the stage's log settings to every log group of a stack, nested stacks included (the
 * functions', the access logs', the worker's), whatever retention their construct chose.
 */
export class StageLogPolicy implements IAspect {
  constructor(private readonly stage: StageSettings) {}

  visit(node: IConstruct): void {
    if (!(node instanceof logs.CfnLogGroup)) return;
    node.retentionInDays = this.stage.logRetention;
    node.applyRemovalPolicy(this.stage.logRemovalPolicy);
  }
}
