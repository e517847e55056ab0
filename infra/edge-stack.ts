import { ArnFormat, Aspects, Stack, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { StageLogPolicy, type StageSettings } from './stage.ts';

/** CloudFront's web ACLs, and its certificates, must be created in us-east-1. */
export const EDGE_REGION = 'us-east-1';

/** Requests one address may make in five minutes before the rate rule blocks it. */
export const DEFAULT_RATE_LIMIT = 2000;

/**
 * AWS managed rule groups on the distribution, in order. Rules of the common set that inspect the
 * body are only counted: message texts are written by people and may look like markup or be long
 * (the app renders them escaped; the CSP is the second line), so blocking on them would eat real
 * messages. `NoUserAgent_HEADER` is only counted too, and its label is blocked by a rule of ours
 * everywhere but the webhooks (`noUserAgentRule`): Telegram posts its updates with no User-Agent.
 */
export const managedRuleGroups = [
  { name: 'AWSManagedRulesAmazonIpReputationList', countOnly: [] },
  {
    name: 'AWSManagedRulesCommonRuleSet',
    countOnly: ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY', 'NoUserAgent_HEADER'],
  },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', countOnly: [] },
] as const;

/**
 * Paths the per-address rate rule leaves alone: channel and payment webhooks. Telegram and Stripe
 * post from a few shared addresses on behalf of every tenant, so one busy hour of a big customer
 * would look like a flood from one address; each delivery is authenticated in its handler (a
 * per-connection secret token, Stripe's signature) and refused cheaply when it is not. The same
 * paths may come without a User-Agent (`noUserAgentRule`).
 */
export const RATE_EXEMPT_PATH_PREFIX = '/api/webhooks/';

/** The label the common rule set's `NoUserAgent_HEADER` puts on a request without a User-Agent (AWS's documentation). */
export const NO_USER_AGENT_LABEL = 'awswaf:managed:aws:core-rule-set:NoUserAgent_Header';

/** A URI path that starts with `prefix`, as a WAF statement. */
const pathStartsWith = (prefix: string): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString: prefix,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});

/**
 * The common rule set's block of requests without a User-Agent, everywhere but the webhooks:
 * Telegram's Bot API posts updates with none (on the first real deploy the bot's webhooks were all
 * refused). The managed rule only counts and labels; this rule, after the group, blocks the label
 * outside `RATE_EXEMPT_PATH_PREFIX`, as AWS documents for exceptions to a managed rule.
 */
export const noUserAgentRule = (priority: number, visibilityConfig: wafv2.CfnWebACL.VisibilityConfigProperty): wafv2.CfnWebACL.RuleProperty => ({
  name: 'NoUserAgentOutsideWebhooks',
  priority,
  action: { block: {} },
  statement: {
    andStatement: {
      statements: [
        { labelMatchStatement: { scope: 'LABEL', key: NO_USER_AGENT_LABEL } },
        { notStatement: { statement: pathStartsWith(RATE_EXEMPT_PATH_PREFIX) } },
      ],
    },
  },
  visibilityConfig,
});

/** The request headers WAF logs never hold: session tokens and Stripe's signature. */
export const redactedHeaders = ['authorization', 'stripe-signature', 'x-telegram-bot-api-secret-token'] as const;

export interface EdgeStackProps extends StackProps {
  /** Stage settings: names, metrics and how long the WAF's logs are kept. */
  readonly stage: StageSettings;
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
  /** Every request the web ACL inspected, with its verdict (WAF requires the `aws-waf-logs-` prefix). */
  readonly wafLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION } });
    const stage = props.stage.name;
    Aspects.of(this).add(new StageLogPolicy(props.stage));

    const metric = (name: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `conversa-${stage}-${name}`,
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
      name: `conversa-${stage}-site`,
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
            rateBasedStatement: {
              limit: props.rateLimit ?? DEFAULT_RATE_LIMIT,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: { notStatement: { statement: pathStartsWith(RATE_EXEMPT_PATH_PREFIX) } },
            },
          },
          visibilityConfig: metric('rate-per-address'),
        },
        ...managed,
        // After the common rule set, whose label it reads.
        noUserAgentRule(managed.length + 1, metric('no-user-agent')),
      ],
    });

    // Logs of every inspected request, tokens redacted, kept as long as the stage keeps logs. The
    // query string goes too: the realtime link's one-time ticket travels there (`/ws?ticket=`), and
    // the lists' queries carry what people search for (names, phone numbers).
    this.wafLogs = new logs.LogGroup(this, 'WafLogs', { logGroupName: `aws-waf-logs-conversa-${stage}` });
    // WAF wants the log group's ARN without the `:*` that `logGroupArn` ends with.
    const wafLogsArn = this.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: this.wafLogs.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const logging = new wafv2.CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [wafLogsArn],
      redactedFields: [{ queryString: {} }, ...redactedHeaders.map((name) => ({ singleHeader: { Name: name } }))],
    });
    logging.node.addDependency(this.wafLogs);
  }
}
