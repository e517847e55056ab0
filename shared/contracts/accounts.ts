import { z } from 'zod';
import { requiredString } from './fields.ts';

export const accountPayload = z.object({ name: requiredString(120) });
export type AccountPayload = z.infer<typeof accountPayload>;
