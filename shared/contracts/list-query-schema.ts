/**
 * The list query's schemas (list-query.ts describes the format): what the API reads a `query`
 * parameter with (shared/domain/list-query.ts). Apart from list-query.ts so that the browser,
 * which only writes queries, never builds them: their zod objects were about 50 ms of the first
 * long task of /inbox and /contacts on a phone (ADR-0161).
 */
import { z } from 'zod';
import { defaultPerPage, maxPerPage, type Where } from './list-query.ts';

/**
 * A number a filter compares with: within JavaScript's safe integers, as DynamoDB's client can store
 * it (a segment keeps its `where`; a larger one was a 500 when it was saved).
 */
const filterNumber = z
  .number()
  .min(-Number.MAX_SAFE_INTEGER, { error: 'Número fora do intervalo aceito' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'Número fora do intervalo aceito' });
const scalar = z.union([z.string().max(500), filterNumber, z.boolean(), z.null()]);
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
export type WhereScalar = z.infer<typeof scalar>;

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
