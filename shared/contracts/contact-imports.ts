/**
 * Importing contacts from a CSV file (docs/product.md#screens, 'Importar contatos'; ADR-0223): the upload request, the column mapping and settings shared by the screen and the
 * routes, the import's state as the API answers it, and the pt-BR reasons a row is left out for.
 */
import { z } from 'zod';
import { requiredText } from './fields.ts';

const MB = 1024 * 1024;

/** The largest CSV accepted: 50,000 rows of a few columns fit in a few MB; this leaves room for wide files. */
export const maxImportBytes = 20 * MB;
export const importFileTooLargeText = `Arquivo muito grande (máximo ${maxImportBytes / MB} MB)`;
export const importFileTypeText = 'Envie um arquivo .csv';

/** What a column of the file becomes. */
export const importFields = ['name', 'phone', 'email', 'ignore'] as const;
export type ImportField = (typeof importFields)[number];
export const importFieldLabels: Record<ImportField, string> = { name: 'Nome', phone: 'Telefone', email: 'E-mail', ignore: 'Ignorar' };

/** POST /contact-imports: the file about to be uploaded. */
export const contactImportRequest = z.object({
  name: z
    .string({ error: requiredText })
    .trim()
    .min(1, { error: requiredText })
    .max(200)
    .refine((name) => /\.csv$/i.test(name), { error: importFileTypeText }),
  length: z.number({ error: requiredText }).int().positive({ error: 'O arquivo está vazio' }).max(maxImportBytes, { error: importFileTooLargeText }),
});
export type ContactImportRequest = z.infer<typeof contactImportRequest>;

/** The type the upload is bound to (the presigned PUT signs it). */
export const importMimetype = 'text/csv';

/** The most columns a mapping names. */
export const maxImportColumns = 100;

/** POST /contact-imports/{id}/start: how to read the rows and what every imported contact gets. `dryRun` checks without writing. */
export const contactImportSettings = z
  .object({
    serviceId: z.string({ error: requiredText }).min(1, { error: requiredText }).max(64),
    mapping: z.array(z.enum(importFields)).min(1).max(maxImportColumns),
    tagIds: z.array(z.string().min(1).max(64)).max(20).default([]),
    departmentId: z
      .string()
      .max(64)
      .nullish()
      .transform((v) => v || null),
    /** Where numbers without a country code are from (docs/product.md#validation). */
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { error: 'Código do país inválido' })
      .default('BR')
      .transform((v) => v.toUpperCase()),
    dryRun: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    for (const field of ['name', 'phone', 'email'] as const) {
      if (v.mapping.filter((m) => m === field).length > 1) {
        ctx.addIssue({ code: 'custom', path: ['mapping'], message: `Escolha só uma coluna para ${importFieldLabels[field]}` });
      }
    }
    if (!v.mapping.includes('phone')) ctx.addIssue({ code: 'custom', path: ['mapping'], message: 'Escolha a coluna do telefone' });
  });
export type ContactImportSettings = z.output<typeof contactImportSettings>;
export type ContactImportSettingsInput = z.input<typeof contactImportSettings>;

/**
 * `waiting`: created, the file uploaded or not yet; `checking` / `checked`: the dry run; `importing`
 * / `done`: the import itself.
 */
export type ContactImportStatus = 'waiting' | 'checking' | 'checked' | 'importing' | 'done';

/** A row left out: its line in the file (the header is line 1) and why. */
export interface ImportRowProblem {
  line: number;
  reason: string;
}

export interface ContactImport {
  id: string;
  fileName: string;
  size: number;
  status: ContactImportStatus;
  /** The settings of the last check or import. */
  settings: ContactImportSettings | null;
  /** Bytes of the file read so far, for the progress bar. */
  bytesRead: number;
  /** Rows read so far (not the header). */
  rows: number;
  /** Rows that were imported (or, in a check, would be). */
  accepted: number;
  /** Rows left out because the contact already exists ('Contato já existe'). */
  skipped: number;
  /** Rows refused (a bad phone, a repeated row, over the plan's limit...). */
  rejected: number;
  /** The first rows left out (skipped or refused), in file order. */
  problems: ImportRowProblem[];
  /** Every row left out, as a CSV to download, once the check or import is over. */
  problemsUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/**
 * GET /contact-imports: one of the account's imports as 'Importações recentes' lists it (newest
 * first; ADR-0236). `requestedBy` is null once its user left the account.
 */
export interface ContactImportSummary {
  id: string;
  fileName: string;
  size: number;
  status: ContactImportStatus;
  requestedBy: { id: string; name: string } | null;
  bytesRead: number;
  rows: number;
  accepted: number;
  skipped: number;
  rejected: number;
  /** Every row left out as a CSV (signed for an hour), once a pass that left rows out is over; else null. */
  problemsUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** POST /contact-imports answers the import and where to PUT the file. */
export interface ContactImportCreated {
  import: ContactImport;
  urlToUpload: string;
  mimetype: typeof importMimetype;
}

/** GET /contact-imports/{id}/preview: the file's header, its first rows and a guessed mapping. */
export interface ContactImportPreview {
  encoding: 'utf-8' | 'windows-1252';
  delimiter: ';' | ',' | '\t';
  header: string[];
  rows: string[][];
  mapping: ImportField[];
}

/** How many rows a preview shows under the header. */
export const previewRows = 5;

/** The reasons a row is left out (docs/product.md#screens, 'Importar contatos'). */
export const importReasons = {
  badPhone: 'Telefone inválido',
  noPhone: 'Sem telefone',
  empty: 'Sem nome nem telefone',
  badEmail: 'E-mail inválido',
  repeatedPhone: (line: number) => `Telefone repetido na linha ${line}`,
  repeatedEmail: (line: number) => `E-mail repetido na linha ${line}`,
  exists: 'Contato já existe',
  overLimit: (limit: number) => `Acima do limite de ${limit.toLocaleString('pt-BR')} contatos do plano`,
  tooLong: 'Linha longa demais',
} as const;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const headerWords: [Exclude<ImportField, 'ignore'>, RegExp][] = [
  ['email', /^(e ?mail|correio eletronico)\b/],
  ['phone', /^(telefone|tel|fone|celular|cel|whatsapp|whats|zap|phone|mobile|numero|contato)\b/],
  ['name', /^(nome|name|cliente|razao social|nome completo|full name)\b/],
];

/** The mapping a header suggests: nome/name, telefone/celular/whatsapp/phone, email/e-mail; one column per field, the rest ignored. */
export function guessMapping(header: readonly string[]): ImportField[] {
  const taken = new Set<ImportField>();
  return header.map((cell) => {
    const folded = fold(cell);
    const match = headerWords.find(([field, words]) => !taken.has(field) && words.test(folded));
    if (!match) return 'ignore';
    taken.add(match[0]);
    return match[0];
  });
}
