/**
 * A template send as the Cloud API takes it (`type: 'template'` on POST /{phone-number-id}/messages,
 * Meta's "Send template messages" reference): `components` with one `header` (its text value, or
 * the uploaded media by id, a document with its file name), one `body` with the variables in order,
 * and one `button` per button that takes a value, named by `sub_type` and its `index` among the
 * template's buttons (a URL's suffix as `text`, a copy-code's `coupon_code`, a quick reply's
 * `payload`). A component with nothing to carry is left out, as Meta wants (ADR-0222).
 */
import type { TemplateSendSpec } from '#contracts/template-fill.ts';

/** The uploaded header media (Meta's media id) and, for a document, the name the customer sees. */
export interface HeaderMediaRef {
  id: string;
  filename?: string;
}

type Parameter = Record<string, unknown>;

function buttonParameter(subType: NonNullable<TemplateSendSpec['buttons']>[number]['subType'], value: string): Parameter {
  switch (subType) {
    case 'url':
      return { type: 'text', text: value };
    case 'copy_code':
      return { type: 'coupon_code', coupon_code: value };
    default:
      return { type: 'payload', payload: value };
  }
}

/**
 * Meta's `components` of a send; `media` is the header's file once uploaded (required when the
 * spec's header is a media one: without it the header is left out and Meta answers 132000).
 */
export function templateComponents(spec: TemplateSendSpec, media: HeaderMediaRef | null): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  const header = spec.header;
  if (header?.type === 'text') components.push({ type: 'header', parameters: [{ type: 'text', text: header.text }] });
  else if (header && media) {
    const object = { id: media.id, ...(header.type === 'document' && media.filename ? { filename: media.filename } : {}) };
    components.push({ type: 'header', parameters: [{ type: header.type, [header.type]: object }] });
  }
  if (spec.parameters.length) components.push({ type: 'body', parameters: spec.parameters.map((text) => ({ type: 'text', text })) });
  for (const button of spec.buttons ?? []) {
    components.push({ type: 'button', sub_type: button.subType, index: String(button.index), parameters: [buttonParameter(button.subType, button.value)] });
  }
  return components;
}

/** The message's `type` and `template` fields for a template send. */
export function templateBody(spec: TemplateSendSpec, media: HeaderMediaRef | null): Record<string, unknown> {
  const components = templateComponents(spec, media);
  return {
    type: 'template',
    template: { name: spec.name, language: { code: spec.language }, ...(components.length ? { components } : {}) },
  };
}
