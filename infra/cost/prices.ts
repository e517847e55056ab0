/**
 * AWS list prices the cost model multiplies by, one table per region. NOT fetched: written from
 * AWS's public price pages as remembered on the "as of" date, without the free tier, in USD. Every
 * figure must be checked against https://aws.amazon.com/pricing/ (or the Pricing API) before it is
 * used for a decision; `confidence` says how sure the number is ('check': the order of magnitude is
 * right, the digits may not be).
 */
export const PRICES_AS_OF = '2025-06 (from memory of the public price pages; not fetched, check before use)';

export interface Price {
  readonly usd: number;
  readonly unit: string;
  readonly source: string;
  readonly confidence: 'list' | 'check';
}

export interface PriceTable {
  readonly region: string;
  readonly lambdaArmGbSecond: Price;
  readonly lambdaRequest: Price;
  readonly fargateArmVcpuHour: Price;
  readonly fargateArmGbHour: Price;
  readonly publicIpv4Hour: Price;
  readonly natGatewayHour: Price;
  readonly httpApiRequest: Price;
  readonly webSocketMessage: Price;
  readonly webSocketConnectionMinute: Price;
  readonly dynamoWriteRequestUnit: Price;
  readonly dynamoReadRequestUnit: Price;
  readonly dynamoStorageGbMonth: Price;
  readonly dynamoPitrGbMonth: Price;
  readonly sqsFifoRequest: Price;
  readonly s3StandardGbMonth: Price;
  readonly s3PutRequest: Price;
  readonly s3GetRequest: Price;
  readonly kmsKeyMonth: Price;
  readonly secretMonth: Price;
  readonly alarmMetricMonth: Price;
  readonly dashboardMonth: Price;
  readonly customMetricMonth: Price;
  readonly logsIngestGb: Price;
  readonly wafWebAclMonth: Price;
  readonly wafRuleMonth: Price;
  readonly wafRequest: Price;
  readonly cloudFrontHttpsRequest: Price;
  readonly xrayTraceRecorded: Price;
  readonly ecrStorageGbMonth: Price;
}

const p = (usd: number, unit: string, source: string, confidence: Price['confidence'] = 'list'): Price => ({ usd, unit, source, confidence });
const M = 1_000_000;

/** Prices that are the same in every region (global services or flat regional prices). */
const global = {
  publicIpv4Hour: p(0.005, 'hour', 'VPC pricing, public IPv4 address (Feb 2024)'),
  kmsKeyMonth: p(1, 'key-month', 'KMS pricing, customer managed key'),
  secretMonth: p(0.4, 'secret-month', 'Secrets Manager pricing'),
  dashboardMonth: p(3, 'dashboard-month', 'CloudWatch pricing, dashboards (first 3 free per account not counted)'),
  wafWebAclMonth: p(5, 'web ACL-month', 'WAF pricing (CloudFront scope is global)'),
  wafRuleMonth: p(1, 'rule-month', 'WAF pricing, per rule or managed rule group'),
  wafRequest: p(0.6 / M, 'request', 'WAF pricing, $0.60 per million requests'),
  // CloudFront bills by the viewer's edge, not the stack's region: South American edges.
  cloudFrontHttpsRequest: p(0.022 / 10_000, 'HTTPS request', 'CloudFront pricing, South America, $0.0220 per 10,000 HTTPS requests', 'check'),
  xrayTraceRecorded: p(5 / M, 'trace', 'X-Ray pricing, $5.00 per million traces recorded (first 100,000 a month free, not counted)'),
} as const;

export const prices: Record<'us-east-1' | 'sa-east-1', PriceTable> = {
  'us-east-1': {
    region: 'us-east-1',
    ...global,
    lambdaArmGbSecond: p(0.0000133334, 'GB-second', 'Lambda pricing, Arm'),
    lambdaRequest: p(0.2 / M, 'request', 'Lambda pricing, $0.20 per million'),
    fargateArmVcpuHour: p(0.03238, 'vCPU-hour', 'Fargate pricing, Linux/ARM'),
    fargateArmGbHour: p(0.00356, 'GB-hour', 'Fargate pricing, Linux/ARM'),
    natGatewayHour: p(0.045, 'hour', 'VPC pricing, NAT gateway'),
    httpApiRequest: p(1 / M, 'request', 'API Gateway pricing, HTTP API, first 300 million'),
    webSocketMessage: p(1 / M, 'message (32 KB)', 'API Gateway pricing, WebSocket messages, first billion'),
    webSocketConnectionMinute: p(0.25 / M, 'connection-minute', 'API Gateway pricing, WebSocket'),
    dynamoWriteRequestUnit: p(0.625 / M, 'write request unit', 'DynamoDB on-demand (after the Nov 2024 price cut)'),
    dynamoReadRequestUnit: p(0.125 / M, 'read request unit', 'DynamoDB on-demand (after the Nov 2024 price cut)'),
    dynamoStorageGbMonth: p(0.25, 'GB-month', 'DynamoDB Standard table class storage'),
    dynamoPitrGbMonth: p(0.2, 'GB-month', 'DynamoDB continuous backups (PITR)'),
    sqsFifoRequest: p(0.5 / M, 'request (64 KB)', 'SQS pricing, FIFO'),
    s3StandardGbMonth: p(0.023, 'GB-month', 'S3 Standard, first 50 TB'),
    s3PutRequest: p(0.005 / 1000, 'PUT/LIST request', 'S3 Standard requests'),
    s3GetRequest: p(0.0004 / 1000, 'GET/HEAD request', 'S3 Standard requests'),
    alarmMetricMonth: p(0.1, 'metric-month', 'CloudWatch pricing, standard resolution alarm per metric'),
    customMetricMonth: p(0.3, 'metric-month', 'CloudWatch pricing, custom metrics, first 10,000'),
    logsIngestGb: p(0.5, 'GB', 'CloudWatch Logs, standard ingestion'),
    ecrStorageGbMonth: p(0.1, 'GB-month', 'ECR storage'),
  },
  'sa-east-1': {
    region: 'sa-east-1',
    ...global,
    lambdaArmGbSecond: p(0.000021, 'GB-second', 'Lambda pricing, Arm, São Paulo', 'check'),
    lambdaRequest: p(0.2 / M, 'request', 'Lambda pricing, $0.20 per million', 'check'),
    fargateArmVcpuHour: p(0.05568, 'vCPU-hour', 'Fargate pricing, Linux/ARM, São Paulo', 'check'),
    fargateArmGbHour: p(0.00611, 'GB-hour', 'Fargate pricing, Linux/ARM, São Paulo', 'check'),
    natGatewayHour: p(0.093, 'hour', 'VPC pricing, NAT gateway, São Paulo', 'check'),
    httpApiRequest: p(1.9 / M, 'request', 'API Gateway pricing, HTTP API, São Paulo', 'check'),
    webSocketMessage: p(1.5 / M, 'message (32 KB)', 'API Gateway pricing, WebSocket messages, São Paulo', 'check'),
    webSocketConnectionMinute: p(0.375 / M, 'connection-minute', 'API Gateway pricing, WebSocket, São Paulo', 'check'),
    dynamoWriteRequestUnit: p(0.9375 / M, 'write request unit', 'DynamoDB on-demand, São Paulo (after the Nov 2024 cut)', 'check'),
    dynamoReadRequestUnit: p(0.1875 / M, 'read request unit', 'DynamoDB on-demand, São Paulo (after the Nov 2024 cut)', 'check'),
    dynamoStorageGbMonth: p(0.375, 'GB-month', 'DynamoDB Standard storage, São Paulo', 'check'),
    dynamoPitrGbMonth: p(0.3, 'GB-month', 'DynamoDB PITR, São Paulo', 'check'),
    sqsFifoRequest: p(0.6 / M, 'request (64 KB)', 'SQS pricing, FIFO, São Paulo', 'check'),
    s3StandardGbMonth: p(0.0405, 'GB-month', 'S3 Standard, São Paulo, first 50 TB', 'check'),
    s3PutRequest: p(0.007 / 1000, 'PUT/LIST request', 'S3 Standard requests, São Paulo', 'check'),
    s3GetRequest: p(0.00056 / 1000, 'GET/HEAD request', 'S3 Standard requests, São Paulo', 'check'),
    alarmMetricMonth: p(0.15, 'metric-month', 'CloudWatch pricing, alarms, São Paulo', 'check'),
    customMetricMonth: p(0.45, 'metric-month', 'CloudWatch pricing, custom metrics, São Paulo', 'check'),
    logsIngestGb: p(0.75, 'GB', 'CloudWatch Logs ingestion, São Paulo', 'check'),
    ecrStorageGbMonth: p(0.1, 'GB-month', 'ECR storage', 'check'),
  },
};
