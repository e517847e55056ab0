import { Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/** CloudFront's web ACLs, and its certificates, must be created in us-east-1. */
export const EDGE_REGION = 'us-east-1';

/** Requests one address may make in five minutes before the rate rule blocks it. */
export const DEFAULT_RATE_LIMIT = 2000;

/**
 * AWS managed rule groups on the distribution, in order. Rules of the common set that inspect the
 * body are only counted: message texts are written by people and may look like markup or be long
 * (the app renders them escaped; the CSP is the second line), so blocking on them would eat real
 * messages.
 */
export const managedRuleGroups = [
  { name: 'AWSManagedRulesAmazonIpReputationList', countOnly: [] },
  { name: 'AWSManagedRulesCommonRuleSet', countOnly: ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
] as const;

export interface EdgeStackProps extends StackProps {
  /** Stage, for names and metrics (`dev`, `prod`). */
  readonly stage: string;
  /** @default DEFAULT_RATE_LIMIT */
  readonly rateLimit?: number;
}

/**
 * What CloudFront needs from us-east-1 whatever region the application lives in: the WAF web ACL
 * of scope CLOUDFRONT. The application stack reads its ARN through `Fn::GetStackOutput`, which
 * CloudFormation resolves across regions (CDK renders cross-region references that way when
 * references are weak, as cdk.json sets): no custom resource, no SSM parameter, no export lock.
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION } });

    const metric = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `conversa-${props.stage}-${name}`,
      sampledRequestsEnabled: true,
    });

    const managed: wafv2.CfnWebACL.RuleProperty[] = managedRuleGroups.map((group, index) => ({
      name: group.name,
      priority: index + 1,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: group.name,
          ...(group.countOnly.length ? { ruleActionOverrides: group.countOnly.map((name) => ({ name, actionToUse: { count: {} } })) } : {}),
        },
      },
      visibilityConfig: metric(group.name),
    }));

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `conversa-${props.stage}-site`,
      description: 'Conversa: managed rules and a per-address rate limit in front of the web app and its APIs',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: metric('site'),
      rules: [
        // First: a flood from one address is cut before the managed rules spend capacity on it.
        {
          name: 'RatePerAddress',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: { limit: props.rateLimit ?? DEFAULT_RATE_LIMIT, evaluationWindowSec: 300, aggregateKeyType: 'IP' },
          },
          visibilityConfig: metric('rate-per-address'),
        },
        ...managed,
      ],
    });
  }
}
