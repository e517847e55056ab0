/**
 * The cost model: its counting on the real template (what it finds is what the template has, and
 * context changes move the floor), and its arithmetic on a tiny template.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { httpFunctionDescription } from './constructs/http-function-groups.ts';
import { workerCapacity, workerTaskSize } from './constructs/channel-worker.ts';
import { costReport, type Inventory, inventoryOf, messageModels, renderCost, replaceSection, type TemplateJson } from './cost/model.ts';
import { type PriceTable, prices } from './cost/prices.ts';
import { synthTemplates } from './cost/synth.ts';
import { stageTemplates } from './test-support/stage-templates.ts';

const count = (templates: TemplateJson[], type: string) => templates.flatMap((t) => Object.values(t.Resources)).filter((r) => r.Type === type).length;

describe('the cost model on the real template', () => {
  let templates: [TemplateJson, TemplateJson];
  let inventory: Inventory;
  beforeAll(() => {
    const prod = stageTemplates('prod');
    templates = [prod.main.toJSON() as TemplateJson, prod.edge.toJSON() as TemplateJson];
    inventory = inventoryOf(...templates);
  });

  it('finds the worker service with its task size, desired count and public address, and no NAT', () => {
    expect(inventory.fargate).toEqual([{ tasks: 1, vcpu: workerTaskSize.cpu / 1024, memoryGb: workerTaskSize.memoryMiB / 1024, publicIp: true, arm: true }]);
    expect(inventory.natGateways).toBe(0);
  });

  it('counts the alarms, secrets, keys, dashboards and the web ACL the templates hold', () => {
    expect(inventory.alarms).toHaveLength(count(templates, 'AWS::CloudWatch::Alarm'));
    expect(inventory.alarms.length).toBeGreaterThan(20);
    // Grouped Lambda alarms read up to 10 functions' errors (or throttles) each.
    expect(Math.max(...inventory.alarms)).toBeGreaterThan(1);
    expect(Math.max(...inventory.alarms)).toBeLessThanOrEqual(10);
    expect(inventory.secrets).toBe(5);
    expect(inventory.kmsKeys).toBe(1);
    expect(inventory.dashboards).toBe(1);
    expect(inventory.webAcls).toBe(1);
    expect(inventory.wafRules).toBe(5);
    expect(inventory.pointInTimeRecovery).toBe(true);
    expect(inventory.polledQueues).toBe(1);
  });

  it("reads every function's memory, and every function a message model names exists", () => {
    const handlers = new Set(httpRoutes.map((r) => r.handler));
    for (const handler of handlers) expect(inventory.functions.get(httpFunctionDescription(handler)), handler).toBe(512);
    for (const model of messageModels) for (const { fn } of model.invocations) expect(inventory.functions.has(fn), fn).toBe(true);
  });

  it('prices more worker tasks into the floor when workerDesiredCount says so', () => {
    const three = inventoryOf(...synthTemplates({ stage: 'prod', workerDesiredCount: '3' }));
    expect(three.fargate[0]!.tasks).toBe(3);
    const price = prices['sa-east-1'];
    const perTask = (workerTaskSize.cpu / 1024) * price.fargateArmVcpuHour.usd * 730 + (workerTaskSize.memoryMiB / 1024) * price.fargateArmGbHour.usd * 730;
    const ipv4 = price.publicIpv4Hour.usd * 730;
    const sqsPoll = 3 * 60 * 730 * price.sqsFifoRequest.usd;
    expect(costReport(three, price).floorTotal - costReport(inventory, price).floorTotal).toBeCloseTo(2 * (perTask + ipv4 + sqsPoll), 6);
  });

  it('renders a section that docs/cost.md can embed', () => {
    const markdown = renderCost(inventory, [costReport(inventory, prices['us-east-1']), costReport(inventory, prices['sa-east-1'])], 'test');
    expect(markdown).toContain('| Item | Quantity | us-east-1 | sa-east-1 |');
    expect(replaceSection('a\n<!-- cost:model -->\nold\n<!-- /cost:model -->\nb', markdown)).toBe(
      `a\n<!-- cost:model -->\n${markdown}\n<!-- /cost:model -->\nb`,
    );
    expect(() => replaceSection('no markers', markdown)).toThrow(/cost:model/);
  });
});

describe('the pricing arithmetic on a tiny template', () => {
  const unit = (usd: number) => ({ usd, unit: 'u', source: 'test', confidence: 'list' as const });
  // Every price 1 except the few the test follows, so each line's figure is its quantity.
  const one = Object.fromEntries(Object.keys(prices['us-east-1']).map((k) => [k, unit(1)])) as unknown as PriceTable;
  const price: PriceTable = { ...one, region: 'test', fargateArmVcpuHour: unit(0.04), fargateArmGbHour: unit(0.004), publicIpv4Hour: unit(0.005) };
  const tiny: TemplateJson = {
    Resources: {
      Task: { Type: 'AWS::ECS::TaskDefinition', Properties: { Cpu: '1024', Memory: '2048', RuntimePlatform: { CpuArchitecture: 'ARM64' } } },
      Service: {
        Type: 'AWS::ECS::Service',
        Properties: { TaskDefinition: { Ref: 'Task' }, DesiredCount: 2, NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'ENABLED' } } },
      },
      Key: { Type: 'AWS::KMS::Key' },
      Secret: { Type: 'AWS::SecretsManager::Secret' },
      Plain: { Type: 'AWS::CloudWatch::Alarm', Properties: { MetricName: 'Errors' } },
      MathAlarm: { Type: 'AWS::CloudWatch::Alarm', Properties: { Metrics: [{ Expression: 'a+b' }, { MetricStat: {} }, { MetricStat: {} }] } },
      // Every function a message model names, at 1 GB.
      ...Object.fromEntries(
        [...new Set(messageModels.flatMap((m) => m.invocations.map((i) => i.fn)))].map((fn, i) => [
          `Fn${i}`,
          { Type: 'AWS::Lambda::Function', Properties: { Description: fn, MemorySize: 1024 } },
        ]),
      ),
      Custom: { Type: 'AWS::Lambda::Function', Properties: { Description: 'CDK custom resource', MemorySize: 128 } },
    },
  };
  const inventory = inventoryOf(tiny);

  it('counts a plain alarm as one metric and a metric-math alarm as its metrics', () => {
    expect(inventory.alarms).toEqual([1, 2]);
    expect(inventory.functions.get('streams/realtime-router')).toBe(1024);
    expect(inventory.deployTimeFunctions).toBe(1);
  });

  it('multiplies task size, task count and hours, and adds each flat monthly price', () => {
    const lines = new Map(costReport(inventory, price).floor.map((l) => [l.item.split(':')[0]!.split(' (')[0]!, l.usd]));
    expect(lines.get('Fargate')).toBeCloseTo(2 * (1 * 0.04 + 2 * 0.004) * 730, 9);
    expect(lines.get('Public IPv4 addresses')).toBeCloseTo(2 * 0.005 * 730, 9);
    expect(lines.get('KMS keys')).toBe(1);
    expect(lines.get('Secrets Manager secrets')).toBe(1);
    expect(lines.get('CloudWatch alarms')).toBe(3);
    expect(lines.get('NAT gateways')).toBe(0);
  });

  it('prices a WhatsApp session as its share of a task, and a message by its model', () => {
    const report = costReport(inventory, price);
    const sessions = workerCapacity(2048);
    expect(report.perSessionTotal).toBeCloseTo(((0.04 + 2 * 0.004) * 730 + 0.005 * 730) / sessions, 9);
    const receipt = report.perThousand.find((m) => m.title.startsWith('WhatsApp'))!;
    const lambda = receipt.lines.find((l) => l.item.startsWith('Lambda'))!;
    // One fanout invocation of 80 ms at 1 GB: 1000 × (1 request + 0.08 GB-s) at price 1.
    expect(lambda.usd).toBeCloseTo(1000 * (1 + 0.08), 9);
    const dynamo = receipt.lines.find((l) => l.item.startsWith('DynamoDB'))!;
    expect(dynamo.usd).toBe(1000 * (4 + 3));
  });
});
