/**
 * The contact list as CSV for Excel in Brazil (ADR-0226): UTF-8 with a byte-order mark
 * (without it Excel reads the bytes as Windows-1252 and breaks every accent), ';' between fields
 * (Excel's separator where the decimal mark is a comma), every field quoted with inner quotes
 * doubled, CRLF line ends, pt-BR headers, dates as dd/MM/yyyy HH:mm in the account's time zone. A
 * field that begins with = + - @ or a tab gets a leading apostrophe, so a name typed by a customer
 * never runs as a spreadsheet formula.
 */
import type { Contact } from '#contracts/contacts.ts';
import { conversationStatusLabels } from '#contracts/conversation-labels.ts';
import { serviceTypeLabels } from '#contracts/service-labels.ts';

export const csvBom = '\uFEFF';

export const contactCsvHeaders = [
  'Nome',
  'Telefone',
  'Email',
  'Conexão',
  'Tipo de conexão',
  'Etiquetas',
  'Departamento',
  'Atendente',
  'Status',
  'Última mensagem em',
  'Criado em',
  'Arquivado em',
  'Descadastrado de campanhas em',
] as const;

/** One field, quoted; a formula's first character disarmed. */
export function csvField(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One line, CRLF-terminated. */
export function csvLine(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(';')}\r\n`;
}

/** Formats ISO instants as dd/MM/yyyy HH:mm in a time zone (empty for none). */
export function csvDateFormat(timeZone: string): (iso: string | null) => string {
  const format = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  return (iso) => (iso ? format.format(new Date(iso)).replace(',', '') : '');
}

/** A contact's line: `tagNames` maps tag ids to names (a tag deleted since is left out). */
export function contactCsvLine(contact: Contact, tagNames: ReadonlyMap<string, string>, date: (iso: string | null) => string): string {
  return csvLine([
    contact.name,
    // Digits with the country code, no '+' (which a spreadsheet reads as the start of a formula).
    contact.data.phoneNumber,
    contact.data.email,
    contact.service?.name,
    contact.service ? serviceTypeLabels[contact.service.type] : '',
    contact.tags
      .map((id) => tagNames.get(id))
      .filter((name) => name !== undefined)
      .join(', '),
    contact.department?.name,
    contact.user?.name,
    conversationStatusLabels[contact.status],
    date(contact.lastMessageAt),
    date(contact.createdAt),
    date(contact.archivedAt),
    date(contact.optedOutAt),
  ]);
}

/**
 * The file as it is uploaded: the BOM and header, then `rowsPerChunk` contacts a chunk, the event
 * loop turning between chunks, so neither the whole text nor a long blocking loop is ever held.
 */
export async function* contactCsvChunks(
  contacts: readonly Contact[],
  tagNames: ReadonlyMap<string, string>,
  date: (iso: string | null) => string,
  rowsPerChunk = 2000,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(csvBom + csvLine(contactCsvHeaders));
  for (let start = 0; start < contacts.length; start += rowsPerChunk) {
    let text = '';
    for (let i = start; i < Math.min(start + rowsPerChunk, contacts.length); i++) text += contactCsvLine(contacts[i]!, tagNames, date);
    yield encoder.encode(text);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
