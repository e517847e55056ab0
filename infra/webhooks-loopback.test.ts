/**
 * The cloud never delivers webhooks to loopback (ADR-0231): only the
 * local runtime reads WEBHOOKS_ALLOW_LOOPBACK=1, so no function and no container of any stage may
 * carry the variable, whatever its value.
 */
import { describe, expect, it } from 'vitest';
import { stages } from './stage.ts';
import { stageTemplates } from './test-support/stage-templates.ts';

type Resource = { Type: string; Properties: Record<string, any> };

describe.each(stages)('the %s stage', (stage) => {
  it('sets WEBHOOKS_ALLOW_LOOPBACK on no Lambda function and no container', () => {
    const { main } = stageTemplates(stage);
    const functions = Object.values(main.findResources('AWS::Lambda::Function')) as Resource[];
    const ours = functions.filter((fn) => fn.Properties.Environment?.Variables?.TABLE_NAME !== undefined);
    // The environments read are the real ones: the product's functions all name the table.
    expect(ours.length).toBeGreaterThan(10);
    for (const fn of functions) expect(fn.Properties.Environment?.Variables ?? {}, fn.Properties.Description).not.toHaveProperty('WEBHOOKS_ALLOW_LOOPBACK');
    const tasks = Object.values(main.findResources('AWS::ECS::TaskDefinition')) as Resource[];
    for (const task of tasks) {
      for (const container of task.Properties.ContainerDefinitions ?? []) {
        expect((container.Environment ?? []).map((v: { Name: string }) => v.Name)).not.toContain('WEBHOOKS_ALLOW_LOOPBACK');
      }
    }
  });
});
