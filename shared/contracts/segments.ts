/**
 * Segments ('Segmentos', ADR-0226): saved filters over the account's contacts, written in
 * the list query language (list-query.ts) as a `where` of the contacts list, so a segment counts,
 * lists and exports exactly as the Contatos screen filters. Campaigns take a segment as audience.
 */
import { z } from 'zod';
import type { Where } from './list-query.ts';
import { whereSchema } from './list-query-schema.ts';
import { requiredString } from './fields.ts';

export interface Segment {
  id: string;
  name: string;
  /** A `where` of GET /contacts (its fields: the contacts list's). */
  where: Where;
  /** How many contacts match now, as the caller sees them (docs/product.md#team-inbox visibility). */
  count: number;
  createdAt: string;
  updatedAt: string;
}

export const segmentTexts = {
  nameTaken: 'Já existe um segmento com este nome',
} as const;

export const segmentPayload = z.object({
  name: requiredString(60),
  where: whereSchema,
});
export type SegmentPayload = z.infer<typeof segmentPayload>;
