/** Tags ('Etiquetas', docs/product.md#team-inbox): the account's palette of named, coloured tags, and a contact's tags. */
import { z } from 'zod';
import { idField, requiredString } from './fields.ts';

export interface Tag {
  id: string;
  name: string;
  /** `#rrggbb`. */
  color: string;
  createdAt: string;
  updatedAt: string;
}

export const tagColorText = 'Escolha uma cor no formato #RRGGBB';

export const tagPayload = z.object({
  name: requiredString(40),
  color: z
    .string({ error: tagColorText })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: tagColorText })
    .transform((v) => v.toLowerCase()),
});
export type TagPayload = z.infer<typeof tagPayload>;

/** A contact's tags, replaced whole (the header's and the contacts list's tag picker). */
export const contactTagsPayload = z.object({
  tagIds: z
    .array(idField)
    .max(20, { error: 'Use no máximo 20 etiquetas por contato' })
    .transform((ids) => [...new Set(ids)]),
});
