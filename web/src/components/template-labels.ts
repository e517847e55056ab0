/** How message templates are named in forms: the inbox's 'Enviar modelo' dialog and the campaign form. */
import { buttonValueKind } from '#contracts/template-fill.ts';
import { type MessageTemplate, type TemplateButtonInfo, templateCategoryLabels } from '#contracts/templates.ts';

/** A template's option label: its name and category, and its language when it is not pt_BR. */
export const templateOptionLabel = (t: MessageTemplate) =>
  `${t.name} · ${templateCategoryLabels[t.category]}${t.language === 'pt_BR' ? '' : ` (${t.language})`}`;

/** The label of a button's value field: a URL's final part, or a copy-code's code. */
export const templateButtonLabel = (button: TemplateButtonInfo) =>
  buttonValueKind(button) === 'url' ? `Final do link do botão “${button.text}”` : `Código do botão “${button.text}”`;
