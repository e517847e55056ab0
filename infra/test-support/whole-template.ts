/**
 * One template for a stack and its nested stacks, as if they were one: the nested stacks' resources
 * are put in the parent's place, their parameters replaced by what the parent passes, and the
 * parent's reads of their outputs replaced by the outputs' values. Tests then check the system
 * (which function may read which table) whatever nested stack a resource happens to live in.
 */
import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

type Json = unknown;
type TemplateJson = {
  Resources: Record<string, { Type: string; Properties?: Record<string, Json> }>;
  Outputs?: Record<string, { Value: Json }>;
  [key: string]: Json;
};

function replace(value: Json, swap: (node: Record<string, Json>) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((item) => replace(item, swap));
  if (value && typeof value === 'object') {
    const swapped = swap(value as Record<string, Json>);
    if (swapped !== undefined) return swapped;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replace(item, swap)]));
  }
  return value;
}

/** The parent's template with every nested stack (at any depth) merged in. */
function merged(stack: Stack): TemplateJson {
  const parent = Template.fromStack(stack).toJSON() as TemplateJson;
  const children = stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c) && c.nestedStackParent === stack);
  for (const child of children) {
    const nested = merged(child);
    const resourceId = stack.getLogicalId(child.nestedStackResource!);
    const parameters = (parent.Resources[resourceId]!.Properties?.Parameters ?? {}) as Record<string, Json>;
    const inlined = replace(nested, (node) => (typeof node.Ref === 'string' && node.Ref in parameters ? parameters[node.Ref] : undefined)) as TemplateJson;
    delete parent.Resources[resourceId];
    for (const [id, resource] of Object.entries(inlined.Resources)) {
      if (id in parent.Resources) throw new Error(`Logical id ${id} is in both ${stack.node.path} and ${child.node.path}`);
      // Dependencies on the nested stack as a whole mean nothing once it is inlined.
      parent.Resources[id] = resource;
    }
    const outputs = inlined.Outputs ?? {};
    Object.assign(
      parent,
      replace(parent, (node) => {
        const getAtt = node['Fn::GetAtt'];
        if (!Array.isArray(getAtt) || getAtt[0] !== resourceId) return undefined;
        return outputs[String(getAtt[1]).replace(/^Outputs\./, '')]!.Value;
      }),
    );
    for (const resource of Object.values(parent.Resources) as { DependsOn?: string | string[] }[]) {
      if (resource.DependsOn) resource.DependsOn = [resource.DependsOn].flat().filter((id) => id !== resourceId);
    }
  }
  return parent;
}

/** `Template.fromStack`, with the stack's nested stacks merged in. */
export function wholeTemplate(stack: Stack): Template {
  return Template.fromJSON(merged(stack));
}
