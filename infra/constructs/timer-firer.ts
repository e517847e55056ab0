import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { NodeFunction, requireEntries } from './node-function.ts';

export interface TimerFirerProps {
  /** The table holding the timers (gsi1 by due time) and the conversations they move. */
  readonly table: dynamodb.ITable;
  /** Absolute path of `functions/schedules`. */
  readonly handlersDir: string;
  /** Repository root, for bundling. */
  readonly projectRoot: string;
  readonly environment: Record<string, string>;
  /**
   * Another poller of the same shape (the campaigns' runner, ADR-0227; the product refresher,
   * ADR-0228): its handler in `handlersDir`, how long one run may last, what its rule says and how
   * often it runs (every minute unless `every`).
   * @default the lifecycle's timers: fire-timers.ts, 55 s
   */
  readonly poller?: { file: string; timeout: Duration; description: string; every?: Duration };
}

/**
 * The conversation lifecycle's timer poller (functions/schedules/fire-timers.ts, ADR-0214): an EventBridge rule runs it every minute. It reads the due
 * timers (Query on gsi1) and moves each conversation in a transaction (the contact, its lines, the
 * timer items), reading the settings and names the lifecycle needs, so it gets the table's read
 * and write rights and nothing else: the automated messages it stores are sent by the outbound
 * stream like any other. No retry: the next minute's run is the retry, and a timer fires late
 * rather than twice (the lifecycle ignores a stale version anyway).
 */
export class TimerFirer extends Construct {
  readonly function: NodeFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: TimerFirerProps) {
    super(scope, id);
    const poller = props.poller ?? { file: 'fire-timers.ts', timeout: Duration.seconds(55), description: "Fires the conversation lifecycle's due timers" };
    const entry = join(props.handlersDir, poller.file);
    requireEntries(this, [entry], 'infra/constructs/timer-firer.ts');

    this.function = new NodeFunction(this, 'FireTimersFn', {
      entry,
      projectRoot: props.projectRoot,
      description: `schedules/${poller.file.replace(/\.ts$/, '')}`,
      environment: props.environment,
      timeout: poller.timeout,
    });
    this.function.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    props.table.grantReadWriteData(this.function);

    this.rule = new events.Rule(this, 'EveryMinute', {
      description: poller.description,
      schedule: events.Schedule.rate(poller.every ?? Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.function)],
    });
  }
}
