import { z } from 'zod';
import { requiredString } from './fields.ts';

export const accountPayload = z.object({ name: requiredString(120) });
export type AccountPayload = z.infer<typeof accountPayload>;

/** An export of the whole account's data (LGPD access request); `url` downloads the archive once done (valid for an hour). */
export interface AccountExport {
  id: string;
  status: 'running' | 'done';
  createdAt: string;
  finishedAt: string | null;
  /** Records written so far. */
  lines: number;
  url: string | null;
}
