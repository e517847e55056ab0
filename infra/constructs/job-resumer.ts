import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { NodeFunction, requireEntries } from './node-function.ts';

/** How often the resume runs. */
export const resumeSchedule = Duration.minutes(10);

export interface JobResumerProps {
  /** The table whose unfinished jobs it lists (gsi1) and moves on. */
  readonly table: dynamodb.ITable;
  /** Absolute path of `functions/schedules`. */
  readonly handlersDir: string;
  /** Repository root, for bundling. */
  readonly projectRoot: string;
  readonly environment: Record<string, string>;
}

/**
 * The scheduled resume of stalled background jobs (functions/schedules/resume-jobs.ts): an
 * EventBridge rule runs the function every 10 minutes. It may only list the pending jobs (Query on
 * gsi1) and move them on (UpdateItem): the jobs' own stream consumers do the work. A failing run is
 * retried twice by Lambda (so a run that keeps failing makes three errors in a few minutes, which
 * the scheduled functions' errors alarm counts); the next run is the replay, so there is no DLQ.
 */
export class JobResumer extends Construct {
  readonly function: NodeFunction;
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: JobResumerProps) {
    super(scope, id);
    const entry = join(props.handlersDir, 'resume-jobs.ts');
    requireEntries(this, [entry], 'infra/constructs/job-resumer.ts');

    this.function = new NodeFunction(this, 'ResumeJobsFn', {
      entry,
      projectRoot: props.projectRoot,
      description: 'schedules/resume-jobs',
      environment: props.environment,
      timeout: Duration.seconds(60),
    });
    this.function.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.minutes(10) });
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [`${props.table.tableArn}/index/gsi1`],
      }),
    );
    this.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [props.table.tableArn] }));

    this.rule = new events.Rule(this, 'Every10Minutes', {
      description: 'Moves on stalled account purges, contact purges and account exports',
      schedule: events.Schedule.rate(resumeSchedule),
      targets: [new targets.LambdaFunction(this.function)],
    });
  }
}
