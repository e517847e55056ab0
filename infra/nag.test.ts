/**
 * cdk-nag's AwsSolutions pack over the whole app as `infra/app.ts` builds it (the edge stack, the
 * main stack and its nested routes stack), for both stages: any finding, error or warning, that is
 * not acknowledged with a reason (infra/nag-suppressions.ts) fails the test and is printed.
 */
import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { defineConversa } from './conversa-app.ts';
import { stages } from './stage.ts';
import { siteFixture } from './test-support/site-fixture.ts';

const cdkContext = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;

/** Every unacknowledged finding as `severity rule-id path: message`, one a line. */
function findings(context: Record<string, unknown>): string[] {
  const app = new App({ context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context } });
  const { edge, main } = defineConversa(app, { siteAssetPath: siteFixture });
  // The pack walks the construct tree from the app: both stacks and the nested stacks inside them.
  expect(app.node.findAll()).toEqual(expect.arrayContaining([edge, main]));
  return formatted(new AwsSolutionsChecks(app).validateScope(app).violations);
}

function formatted(violations: ReturnType<AwsSolutionsChecks['validateScope']>['violations']): string[] {
  return violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} ${resource.constructPath}: ${violation.description}`),
  );
}

describe('cdk-nag AwsSolutions checks', () => {
  for (const stage of stages) {
    it(`find nothing unacknowledged in the ${stage} stage`, () => {
      expect(findings({ stage }).join('\n')).toBe('');
    });
  }

  it('find nothing unacknowledged with a custom domain (its TLS floor) and an SES identity (its scoped grant)', () => {
    const context = {
      domainName: 'app.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
      sesIdentity: 'example.com',
    };
    expect(findings(context).join('\n')).toBe('');
  });

  it('does report what is not acknowledged (the check is not a no-op), with the rule, the path and the message', () => {
    const app = new App();
    new s3.Bucket(new Stack(app, 'Bare'), 'Plain');
    expect(formatted(new AwsSolutionsChecks(app).validateScope(app).violations)).toContain(
      'error AwsSolutions-S1 Bare/Plain/Resource: The S3 Bucket has server access logs disabled.',
    );
  });
});
