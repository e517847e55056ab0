/**
 * The list query of SPEC section 7: a JSON object sent URL-encoded in the `query` parameter.
 *
 *   { where, include, order, page, perPage, withCount, after }
 *
 * `where` maps a field path (dots for nesting, e.g. `data.email`) to a value (equality, `null`
 * included) or an operator object ({ like, eq, ne, in, gt, gte, lt, lte }); `or` holds a list of
 * such objects of which one must match. `like` is SQL-like (`%` any run, `_` one character),
 * case- and accent-insensitive. `order` is a list of [field, 'ASC' | 'DESC'].
 *
 * `after` pages by cursor where a route allows it (the contacts): the `nextCursor` of the previous
 * answer, which names the last row shown by its order values and id, so the next page starts just
 * after it whatever was added or removed meanwhile (page stays 0).
 */
import { z } from 'zod';

export const maxPerPage = 500;
export const defaultPerPage = 10;

const scalar = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);
const operator = z
  .object({
    eq: scalar.optional(),
    ne: scalar.optional(),
    like: z.string().max(200).optional(),
    in: z.array(scalar).max(100).optional(),
    gt: scalar.optional(),
    gte: scalar.optional(),
    lt: scalar.optional(),
    lte: scalar.optional(),
  })
  .strict();
export type WhereOperator = z.infer<typeof operator>;

export type WhereValue = z.infer<typeof scalar> | WhereOperator;
export interface Where {
  [field: string]: WhereValue | Where[] | undefined;
  or?: Where[];
}

const fieldPath = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/)
  .max(60);

export const whereSchema: z.ZodType<Where> = z.lazy(() =>
  z.record(z.string().max(60), z.union([scalar, operator, z.array(whereSchema).max(20)])).superRefine((obj, ctx) => {
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'or') {
        if (!Array.isArray(value)) ctx.addIssue({ code: 'custom', message: '`or` takes a list', path: [key] });
      } else if (!fieldPath.safeParse(key).success || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: `Filtro inválido: ${key}`, path: [key] });
      }
    }
  }),
) as z.ZodType<Where>;

export const listQuerySchema = z
  .object({
    where: whereSchema.optional().default({}),
    include: z.array(z.string().max(40)).max(20).optional().default([]),
    order: z
      .array(z.tuple([fieldPath, z.enum(['ASC', 'DESC', 'asc', 'desc'])]))
      .max(5)
      .optional()
      .default([]),
    page: z.number().int().min(0).max(100000).optional().default(0),
    perPage: z.number().int().min(1).max(maxPerPage).optional().default(defaultPerPage),
    withCount: z.boolean().optional().default(true),
    after: z.string().min(1).max(2000).optional(),
  })
  .strict();

export type ListQuery = z.output<typeof listQuerySchema>;
export type ListQueryInput = z.input<typeof listQuerySchema>;

/** Builds the URL search string for a list call: `?query=<url-encoded JSON>`. */
export function listQueryString(query: ListQueryInput): string {
  return `?query=${encodeURIComponent(JSON.stringify(query))}`;
}

/** `%text%` for a case-insensitive "contains" search, escaping the wildcards typed by the user. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
