/**
 * What a row of an import becomes (docs/product.md#screens, 'Importar contatos'): a contact's name,
 * phone and e-mail, or the pt-BR reason it is left out; repeated rows inside the file, by phone and
 * by e-mail, are left out naming the line of their first occurrence.
 */
import { z } from 'zod';
import { importReasons, type ImportField } from '#contracts/contact-imports.ts';
import { normaliseImportPhone, type ImportPhone } from './import-phone.ts';

export interface ImportRow {
  line: number;
  name: string;
  phone: ImportPhone;
  email: string | null;
}

export type RowOutcome = { ok: true; row: ImportRow } | { ok: false; line: number; reason: string };

const email = z.email();
/** A contact's name fits the contact form's limit (shared/contracts/contacts.ts). */
const maxName = 120;

/** A record of the file as a row to import, by the mapping of its columns. */
export function evaluateRow(record: readonly string[], line: number, mapping: readonly ImportField[], country: string): RowOutcome {
  const field = (name: ImportField) => {
    const at = mapping.indexOf(name);
    return at < 0 ? '' : (record[at] ?? '').trim();
  };
  const name = field('name').replace(/\s+/g, ' ').slice(0, maxName);
  const rawPhone = field('phone');
  const rawEmail = field('email').toLowerCase();
  if (!name && !rawPhone) return { ok: false, line, reason: importReasons.empty };
  if (!rawPhone) return { ok: false, line, reason: importReasons.noPhone };
  const phone = normaliseImportPhone(rawPhone, country);
  if (!phone) return { ok: false, line, reason: importReasons.badPhone };
  if (rawEmail && (rawEmail.length > 254 || !email.safeParse(rawEmail).success)) return { ok: false, line, reason: importReasons.badEmail };
  return { ok: true, row: { line, name: name || `+${phone.digits}`, phone, email: rawEmail || null } };
}

/** The phones and e-mails a pass has met so far, each with the line it was first met on. */
export interface SeenRows {
  phones: Record<string, number>;
  emails: Record<string, number>;
}

/**
 * The row's repetition of an earlier row of the file, if any, and otherwise records it as met. A row
 * met again at its own line (a step run twice) is no repetition.
 */
export function repetitionOf(seen: SeenRows, row: ImportRow): string | null {
  const byPhone = seen.phones[row.phone.digits];
  if (byPhone !== undefined && byPhone !== row.line) return importReasons.repeatedPhone(byPhone);
  const byEmail = row.email ? seen.emails[row.email] : undefined;
  if (byEmail !== undefined && byEmail !== row.line) return importReasons.repeatedEmail(byEmail);
  seen.phones[row.phone.digits] = row.line;
  if (row.email) seen.emails[row.email] = row.line;
  return null;
}

/** A field of the list of rows left out, quoted when it must be. */
function csvField(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The list's header: ';' separated, as Excel in Brazil opens it. */
export const problemsHeader = 'linha;motivo;conteúdo';

/** One line of the list of rows left out: the line, the reason and the row as it was in the file. */
export function problemLine(line: number, reason: string, record: readonly string[]): string {
  return [String(line), reason, record.join(' | ')].map(csvField).join(';');
}
