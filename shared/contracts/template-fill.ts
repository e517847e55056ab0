/**
 * Filling a message template for one send (ADR-0213, ADR-0222): every value
 * the approved template needs (its header's `{{1}}` or media file, the body's variables, a URL
 * button's suffix, a copy-code button's code) checked by one zod schema that the 'Enviar modelo'
 * dialog and the send route both run, so the form says in pt-BR what the route would refuse, and
 * what both send is the same `TemplateSendSpec` the Cloud adapter turns into Meta's `components`.
 */
import { z } from 'zod';
import { fillVariables, variableValues, type QuickReplyContext } from './quick-replies.ts';
import { templateParameterValues, variableCount, type MessageTemplate, type TemplateButtonInfo } from './templates.ts';

export type HeaderMediaFormat = 'IMAGE' | 'VIDEO' | 'DOCUMENT';

/**
 * The files a media header takes, per format: the Cloud API's image (JPEG, PNG) and video (MP4,
 * 3GPP) types of its media reference; a document header is kept to PDF, the document Meta's own
 * template examples and WhatsApp's preview of a header document use.
 */
export const headerMedia: Record<HeaderMediaFormat, { label: string; accept: string; types: string; messageType: 'image' | 'video' | 'document' }> = {
  IMAGE: { label: 'Imagem do cabeçalho', accept: 'image/jpeg,image/png', types: 'JPG ou PNG', messageType: 'image' },
  VIDEO: { label: 'Vídeo do cabeçalho', accept: 'video/mp4,video/3gpp', types: 'MP4 ou 3GP', messageType: 'video' },
  DOCUMENT: { label: 'Documento do cabeçalho', accept: 'application/pdf', types: 'PDF', messageType: 'document' },
};

export const isHeaderMedia = (format: MessageTemplate['headerFormat']): format is HeaderMediaFormat =>
  format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT';

/** Meta's longest copy-code value (the coupon a copy-code button copies). */
const couponCodeMax = 15;

export const templateFillTexts = {
  headerEmpty: 'A variável {{1}} do cabeçalho ficou vazia para este contato',
  mediaMissing: (format: HeaderMediaFormat) => `Escolha o arquivo do cabeçalho (${headerMedia[format].types})`,
  mediaWrongType: (format: HeaderMediaFormat) =>
    `O cabeçalho deste modelo é ${format === 'IMAGE' ? 'uma imagem' : format === 'VIDEO' ? 'um vídeo' : 'um documento'}: escolha um arquivo ${headerMedia[format].types}`,
  mediaNotWanted: 'Este modelo não tem arquivo no cabeçalho',
  locationHeader: 'Modelos com localização no cabeçalho ainda não podem ser enviados por aqui',
  unsupportedButton: (kind: string) => `Modelos com botão do tipo ${kind} ainda não podem ser enviados por aqui`,
  urlSuffixEmpty: (button: string) => `Preencha o final do link do botão “${button}”`,
  couponEmpty: (button: string) => `Informe o código do botão “${button}”`,
  couponTooLong: `O código pode ter no máximo ${couponCodeMax} caracteres`,
} as const;

/** A button that takes a value at every send: a URL ending in `{{1}}` (its suffix) or a copy code (its code). */
export function buttonValueKind(button: TemplateButtonInfo): 'url' | 'copy_code' | null {
  if (button.type === 'COPY_CODE') return 'copy_code';
  if (button.type === 'URL' && /\{\{\s*1\s*\}\}/.test(button.url)) return 'url';
  return null;
}

/** Meta's name of the first button kind the product cannot send, or null when it can send them all. */
export function unsupportedButtonKind(template: Pick<MessageTemplate, 'buttons'>): string | null {
  const button = template.buttons.find((b) => b.type === 'UNSUPPORTED');
  return button?.type === 'UNSUPPORTED' ? button.kind : null;
}

/** How many variables a text header has (0 or 1); none for other headers. */
export const headerVariableCount = (template: Pick<MessageTemplate, 'headerFormat' | 'header'>) =>
  template.headerFormat === 'TEXT' && template.header ? variableCount(template.header) : 0;

/**
 * What a send of a template carries to the channel, as stored on the message: the body's values,
 * the header (its text value, or the kind of media the message's file is sent as) and each button
 * that takes a value, by its index in the template. Quick replies may carry a payload Meta hands
 * back when tapped (none sent by the product today: the tap comes back with the button's text).
 */
export interface TemplateSendSpec {
  name: string;
  language: string;
  parameters: string[];
  header?: { type: 'text'; text: string } | { type: 'image' | 'video' | 'document' };
  buttons?: { index: number; subType: 'url' | 'copy_code' | 'quick_reply'; value: string }[];
}

type FillTemplate = Pick<MessageTemplate, 'headerFormat' | 'header' | 'body' | 'buttons' | 'variableCount'>;

/** The values once filled for the contact: body values, the header's `{{1}}` value, one value per button ('' for none). */
export interface FilledTemplate {
  parameters: string[];
  header: string | null;
  buttons: string[];
}

const mediaMatches: Record<HeaderMediaFormat, (mime: string) => boolean> = {
  IMAGE: (m) => /^image\/(jpeg|png)$/.test(m),
  VIDEO: (m) => /^video\/(mp4|3gpp)$/.test(m),
  DOCUMENT: (m) => m === 'application/pdf',
};

/**
 * The schema of one send of `template` for a contact (`ctx` fills `{{nome}}` and the other contact
 * fields in every value). Issues name the send payload's fields: `template.parameters[.n]`,
 * `template.header`, `template.buttons.n` and `fileId` (the header's file); the output is the
 * filled values.
 */
export function templateFillSchema(template: FillTemplate, ctx: QuickReplyContext) {
  const fields = variableValues(ctx);
  const fill = (value: string | null | undefined) => fillVariables(value ?? '', fields).trim();
  return z
    .object({
      parameters: z.array(z.string()),
      header: z.string().nullish(),
      buttons: z.array(z.string()).default([]),
      media: z.object({ mimetype: z.string() }).nullish(),
    })
    .superRefine((v, issues) => {
      const add = (path: (string | number)[], message: string) => issues.addIssue({ code: 'custom', path, message });
      const body = templateParameterValues(v.parameters, template.variableCount, ctx);
      if (!body.ok) add(body.path.split('.'), body.message);
      if (template.headerFormat === 'LOCATION') add(['template', 'name'], templateFillTexts.locationHeader);
      const unsupported = unsupportedButtonKind(template);
      if (unsupported) add(['template', 'name'], templateFillTexts.unsupportedButton(unsupported));
      if (headerVariableCount(template) && !fill(v.header)) add(['template', 'header'], templateFillTexts.headerEmpty);
      const format = template.headerFormat;
      if (isHeaderMedia(format)) {
        if (!v.media) add(['fileId'], templateFillTexts.mediaMissing(format));
        else if (!mediaMatches[format](v.media.mimetype.toLowerCase())) add(['fileId'], templateFillTexts.mediaWrongType(format));
      } else if (v.media) add(['fileId'], templateFillTexts.mediaNotWanted);
      template.buttons.forEach((button, i) => {
        const kind = buttonValueKind(button);
        const value = fill(v.buttons[i]);
        if (kind === 'url' && !value) add(['template', 'buttons', i], templateFillTexts.urlSuffixEmpty(button.text));
        if (kind === 'copy_code' && !value) add(['template', 'buttons', i], templateFillTexts.couponEmpty(button.text));
        if (kind === 'copy_code' && value.length > couponCodeMax) add(['template', 'buttons', i], templateFillTexts.couponTooLong);
      });
    })
    .transform(
      (v): FilledTemplate => ({
        parameters: v.parameters.map(fill),
        header: headerVariableCount(template) ? fill(v.header) : null,
        buttons: template.buttons.map((button, i) => (buttonValueKind(button) ? fill(v.buttons[i]) : '')),
      }),
    );
}

/** The send spec of a filled template: what the message stores and the channel sends. */
export function templateSendSpec(
  template: Pick<MessageTemplate, 'name' | 'language' | 'headerFormat' | 'header' | 'buttons'>,
  filled: FilledTemplate,
): TemplateSendSpec {
  const spec: TemplateSendSpec = { name: template.name, language: template.language, parameters: filled.parameters };
  if (filled.header !== null && headerVariableCount(template)) spec.header = { type: 'text', text: filled.header };
  else if (isHeaderMedia(template.headerFormat)) spec.header = { type: headerMedia[template.headerFormat].messageType };
  const buttons = template.buttons.flatMap((button, index) => {
    const kind = buttonValueKind(button);
    return kind ? [{ index, subType: kind, value: filled.buttons[index] ?? '' }] : [];
  });
  if (buttons.length) spec.buttons = buttons;
  return spec;
}

/**
 * A filled template as the conversation shows it: the text header with its `{{1}}`, the body with
 * its variables, the footer, and the buttons as text lines (`[Ver pedido] https://…/1234`). A media
 * header is the message's file, shown like any other.
 */
export function renderFilledTemplate(
  template: Pick<MessageTemplate, 'headerFormat' | 'header' | 'body' | 'footer' | 'buttons'>,
  filled: { parameters: readonly string[]; header?: string | null; buttons?: readonly string[] },
): string {
  const header = template.headerFormat === 'TEXT' || (template.headerFormat === null && template.header) ? template.header : null;
  const headerText = header ? header.replace(/\{\{\s*1\s*\}\}/g, (whole) => filled.header || whole) : null;
  const body = template.body.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => filled.parameters[Number(n) - 1] || whole);
  const buttons = template.buttons.map((button, i) => {
    const value = filled.buttons?.[i] ?? '';
    switch (button.type) {
      case 'URL':
        return `[${button.text}] ${button.url.replace(/\{\{\s*1\s*\}\}/g, (whole) => value || whole)}`;
      case 'PHONE_NUMBER':
        return `[${button.text}] ${button.phoneNumber}`;
      case 'COPY_CODE':
        return `[${button.text}] ${value || '{{código}}'}`;
      default:
        return `[${button.text}]`;
    }
  });
  return [headerText, body, template.footer, buttons.length ? buttons.join('\n') : null].filter((part): part is string => Boolean(part)).join('\n\n');
}
