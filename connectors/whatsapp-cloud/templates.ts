/**
 * Message templates at Meta (`/{waba-id}/message_templates`): every page of the list read and
 * turned into ours, a template created from the form's fields (header, body with an example per
 * variable, footer, buttons, as Meta's components), and deleted by name (Meta deletes every
 * language of it). Only text headers without variables are ours to make; a template made in
 * Meta's manager lists with its header's format (a text with `{{1}}`, an image, a video, a document
 * or a location) and its buttons (URLs with a `{{1}}` suffix, copy-code ones), which a send fills
 * (#contracts/template-fill.ts, ADR-0222).
 */
import { parseCloudCredentials } from '#domain/channels/cloud-credentials.ts';
import { ChannelUnreachable, TemplateRefused, type ChannelConnection, type ChannelTemplate, type ChannelTemplates } from '#domain/channels/port.ts';
import {
  templateCategories,
  templateHeaderFormats,
  templateStatuses,
  type TemplateButtonInfo,
  type TemplateCategory,
  type TemplateHeaderFormat,
  type TemplatePayload,
  type TemplateStatus,
} from '#contracts/templates.ts';
import { graphClient, GraphError } from './graph-client.ts';
import { templateReasons } from './inbound.ts';

/** A template as Meta lists it (the fields we ask for). */
export interface GraphTemplate {
  id?: unknown;
  name?: unknown;
  language?: unknown;
  category?: unknown;
  status?: unknown;
  rejected_reason?: unknown;
  components?: {
    type?: unknown;
    format?: unknown;
    text?: unknown;
    example?: { body_text?: unknown; header_text?: unknown; header_handle?: unknown };
    buttons?: { type?: unknown; text?: unknown; url?: unknown; phone_number?: unknown }[];
  }[];
}

interface GraphPage {
  data?: GraphTemplate[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** At most this many pages are read (100 templates each): Meta's own limit per WABA is far below. */
const maxPages = 50;

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** A rejection or pause reason as the admin reads it; null for none. */
export function templateReasonText(reason: unknown): string | null {
  const value = str(reason);
  if (!value || value === 'NONE') return null;
  return templateReasons[value] ?? value;
}

/** Meta's listed template as ours, or null for one we cannot show (no name, id or body). */
export function fromGraphTemplate(t: GraphTemplate): ChannelTemplate | null {
  const id = typeof t.id === 'string' || typeof t.id === 'number' ? String(t.id) : null;
  const name = str(t.name);
  const components = Array.isArray(t.components) ? t.components : [];
  const kind = (c: { type?: unknown }) => String(c.type ?? '').toUpperCase();
  const body = components.find((c) => kind(c) === 'BODY');
  const bodyText = str(body?.text);
  if (!id || !name || !bodyText) return null;
  const header = components.find((c) => kind(c) === 'HEADER');
  const format = header ? String(header.format ?? 'TEXT').toUpperCase() : null;
  // A format Meta adds later (GIF, PRODUCT, ...) is kept as none: the send would lack its parameter and Meta say so (132000).
  const headerFormat = format && (templateHeaderFormats as readonly string[]).includes(format) ? (format as TemplateHeaderFormat) : null;
  const footer = components.find((c) => kind(c) === 'FOOTER');
  const examples = body?.example?.body_text;
  // A send names a button by its index among all of them, so every button keeps its place: a kind
  // we do not send (OTP, FLOW, CATALOG, ...) is kept as UNSUPPORTED, and a send of its template is
  // refused with a clear text (templateFillTexts.unsupportedButton) rather than reaching Meta with
  // buttons it would read at the wrong index (132000/132012).
  const buttons: TemplateButtonInfo[] = [];
  for (const b of components.find((c) => kind(c) === 'BUTTONS')?.buttons ?? []) {
    const text = str(b.text) ?? '';
    const type = String(b.type ?? '').toUpperCase();
    if (type === 'URL') buttons.push({ type, text, url: str(b.url) ?? '' });
    else if (type === 'PHONE_NUMBER') buttons.push({ type, text, phoneNumber: str(b.phone_number) ?? '' });
    else if (type === 'COPY_CODE') buttons.push({ type, text });
    else if (type === 'QUICK_REPLY') buttons.push({ type, text });
    else buttons.push({ type: 'UNSUPPORTED', text, kind: type || 'DESCONHECIDO' });
  }
  const status = String(t.status ?? '').toUpperCase();
  const category = String(t.category ?? '').toUpperCase();
  return {
    id,
    name,
    language: str(t.language) ?? 'pt_BR',
    category: (templateCategories as readonly string[]).includes(category) ? (category as TemplateCategory) : 'UTILITY',
    // Meta's other states (IN_APPEAL, PENDING_DELETION, LIMIT_EXCEEDED, ...) cannot be sent: shown as pending or disabled.
    status: (templateStatuses as readonly string[]).includes(status) ? (status as TemplateStatus) : status === 'IN_APPEAL' ? 'PENDING' : 'DISABLED',
    rejectionReason: templateReasonText(t.rejected_reason),
    headerFormat,
    header: headerFormat === 'TEXT' ? str(header?.text) : null,
    body: bodyText,
    examples: Array.isArray(examples) && Array.isArray(examples[0]) ? (examples[0] as unknown[]).map(String) : [],
    footer: str(footer?.text),
    buttons,
  };
}

/** Our form's template as Meta's create call's fields. */
export function toGraphTemplate(t: TemplatePayload): Record<string, unknown> {
  const components: Record<string, unknown>[] = [];
  if (t.header) components.push({ type: 'HEADER', format: 'TEXT', text: t.header });
  components.push({ type: 'BODY', text: t.body, ...(t.examples.length ? { example: { body_text: [t.examples] } } : {}) });
  if (t.footer) components.push({ type: 'FOOTER', text: t.footer });
  if (t.buttons.length) {
    components.push({
      type: 'BUTTONS',
      buttons: t.buttons.map((b) =>
        b.type === 'URL'
          ? { type: 'URL', text: b.text, url: b.url }
          : b.type === 'PHONE_NUMBER'
            ? { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phoneNumber }
            : { type: 'QUICK_REPLY', text: b.text },
      ),
    });
  }
  return { name: t.name, language: t.language, category: t.category, components };
}

function credentialsOf(connection: ChannelConnection) {
  const credentials = parseCloudCredentials(connection.token);
  if (!credentials) throw new ChannelUnreachable('the connection has no Cloud API credentials');
  return credentials;
}

/** Meta's refusal as the port's: a template of that name and language exists (subcode 2388024), or another refusal with Meta's words. */
function translate(error: unknown): never {
  if (error instanceof GraphError) {
    if (error.code === 100 && error.subcode === 2388024) throw new TemplateRefused('exists');
    if (error.code === 190 || error.code === 80007 || error.code === 130429) throw new ChannelUnreachable(`Graph API ${error.code}: ${error.message}`);
    throw new TemplateRefused('invalid', error.details ?? error.message);
  }
  if (error instanceof TemplateRefused || error instanceof ChannelUnreachable) throw error;
  throw new ChannelUnreachable((error as Error).message);
}

export const whatsappCloudTemplates: ChannelTemplates = {
  async list(connection) {
    const { wabaId, accessToken } = credentialsOf(connection);
    const graph = graphClient(accessToken);
    const found: ChannelTemplate[] = [];
    let after: string | undefined;
    try {
      for (let page = 0; page < maxPages; page++) {
        const answer = await graph.get<GraphPage>(`${encodeURIComponent(wabaId)}/message_templates`, {
          fields: 'id,name,language,category,status,rejected_reason,components',
          limit: '100',
          ...(after ? { after } : {}),
        });
        for (const t of answer.data ?? []) {
          const template = fromGraphTemplate(t);
          if (template) found.push(template);
        }
        after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
        if (!after) break;
      }
    } catch (error) {
      translate(error);
    }
    return found;
  },

  async create(connection, template) {
    const { wabaId, accessToken } = credentialsOf(connection);
    try {
      const answer = await graphClient(accessToken).post<{ id?: unknown; status?: unknown }>(
        `${encodeURIComponent(wabaId)}/message_templates`,
        toGraphTemplate(template),
      );
      if (typeof answer.id !== 'string' && typeof answer.id !== 'number') throw new ChannelUnreachable('Graph API template create answered no id');
      const status = String(answer.status ?? 'PENDING').toUpperCase();
      return { id: String(answer.id), status: (templateStatuses as readonly string[]).includes(status) ? (status as TemplateStatus) : 'PENDING' };
    } catch (error) {
      translate(error);
    }
  },

  async remove(connection, name) {
    const { wabaId, accessToken } = credentialsOf(connection);
    try {
      await graphClient(accessToken).delete(`${encodeURIComponent(wabaId)}/message_templates?name=${encodeURIComponent(name)}`);
    } catch (error) {
      // Gone at Meta already (deleted in Meta's manager): nothing left to delete there.
      if (error instanceof GraphError && error.code === 100 && !error.subcode) throw new TemplateRefused('notFound');
      translate(error);
    }
  },
};
