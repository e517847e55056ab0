/**
 * What AWS WAF would do with one request under a web ACL of the template: the rules in priority
 * order, as WAF evaluates them (a terminating action ends the evaluation; labels added by earlier
 * rules are seen by later ones). Managed rule groups are opaque to a template, so each is modelled by
 * the rules of it that a test needs, from AWS's documentation: their match, their action, their label.
 * Statements cover what our web ACL uses: byte match on the URI path, not / and / or, label match,
 * managed rule groups with rule action overrides and scope-down statements; rate-based rules never
 * match a single request.
 */
export interface WafRequest {
  method: string;
  uriPath: string;
  headers: Record<string, string>;
}

interface ManagedRule {
  name: string;
  label: string;
  matches: (request: WafRequest) => boolean;
}

/** AWS's managed rules a test relies on, as their documentation describes them. */
export const managedRuleModels: Record<string, ManagedRule[]> = {
  // Core rule set (CRS): "NoUserAgent_HEADER: inspects for requests that are missing the HTTP
  // User-Agent header. Rule action: Block. Label: awswaf:managed:aws:core-rule-set:NoUserAgent_Header".
  AWSManagedRulesCommonRuleSet: [
    {
      name: 'NoUserAgent_HEADER',
      label: 'awswaf:managed:aws:core-rule-set:NoUserAgent_Header',
      matches: (request) => !Object.keys(request.headers).some((name) => name.toLowerCase() === 'user-agent'),
    },
  ],
  AWSManagedRulesAmazonIpReputationList: [],
  AWSManagedRulesKnownBadInputsRuleSet: [],
};

export interface WafVerdict {
  action: 'allow' | 'block';
  /** The rule (or `group/rule`) that decided, or 'default'. */
  by: string;
  labels: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: synthesised CloudFormation JSON, read as WAF would
type CfnJson = any;
type Statement = Record<string, CfnJson>;

function matches(statement: Statement, request: WafRequest, labels: string[]): boolean {
  if (statement.ByteMatchStatement) {
    const { FieldToMatch, PositionalConstraint, SearchString, TextTransformations } = statement.ByteMatchStatement;
    if (!FieldToMatch.UriPath) throw new Error(`Unmodelled field ${JSON.stringify(FieldToMatch)}`);
    if (TextTransformations.some((t: { Type: string }) => t.Type !== 'NONE')) throw new Error('Unmodelled text transformation');
    const value = request.uriPath;
    switch (PositionalConstraint) {
      case 'STARTS_WITH':
        return value.startsWith(SearchString);
      case 'EXACTLY':
        return value === SearchString;
      case 'CONTAINS':
        return value.includes(SearchString);
      default:
        throw new Error(`Unmodelled constraint ${PositionalConstraint}`);
    }
  }
  if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request, labels);
  if (statement.AndStatement) return statement.AndStatement.Statements.every((s: Statement) => matches(s, request, labels));
  if (statement.OrStatement) return statement.OrStatement.Statements.some((s: Statement) => matches(s, request, labels));
  if (statement.LabelMatchStatement) {
    const { Scope, Key } = statement.LabelMatchStatement;
    if (Scope !== 'LABEL') throw new Error('Unmodelled label namespace match');
    return labels.includes(Key);
  }
  throw new Error(`Unmodelled statement ${Object.keys(statement).join(', ')}`);
}

/** The verdict of a web ACL (`AWS::WAFv2::WebACL` properties, as synthesised) on one request. */
export function evaluateWebAcl(webAcl: Record<string, CfnJson>, request: WafRequest): WafVerdict {
  const labels: string[] = [];
  const rules = [...(webAcl.Rules as Record<string, CfnJson>[])].sort((a, b) => a.Priority - b.Priority);
  for (const rule of rules) {
    const statement = rule.Statement as Statement;
    if (statement.RateBasedStatement) continue;
    if (statement.ManagedRuleGroupStatement) {
      const group = statement.ManagedRuleGroupStatement;
      const models = managedRuleModels[group.Name];
      if (!models) throw new Error(`No model of the managed rule group ${group.Name}`);
      if (group.ScopeDownStatement && !matches(group.ScopeDownStatement, request, labels)) continue;
      const countOnly = rule.OverrideAction?.Count !== undefined;
      for (const model of models) {
        if (!model.matches(request)) continue;
        labels.push(model.label);
        const override = (group.RuleActionOverrides ?? []).find((o: { Name: string }) => o.Name === model.name);
        const action = override ? Object.keys(override.ActionToUse)[0] : 'Block';
        if (action === 'Block' && !countOnly) return { action: 'block', by: `${group.Name}/${model.name}`, labels };
      }
      continue;
    }
    if (!matches(statement, request, labels)) continue;
    for (const label of rule.RuleLabels ?? []) labels.push(label.Name);
    if (rule.Action?.Block) return { action: 'block', by: rule.Name, labels };
    if (rule.Action?.Allow) return { action: 'allow', by: rule.Name, labels };
  }
  return { action: webAcl.DefaultAction.Block ? 'block' : 'allow', by: 'default', labels };
}
