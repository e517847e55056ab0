/** Departments ('Departamentos', docs/product.md#team-inbox): teams of users that conversations are routed to. */
import { z } from 'zod';
import { idField, requiredString } from './fields.ts';

export interface Department {
  id: string;
  name: string;
  /** The users that belong to it: they see its unassigned conversations. */
  userIds: string[];
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const departmentPayload = z.object({
  name: requiredString(60),
  userIds: z.array(idField).max(500, { error: 'Escolha no máximo 500 usuários' }).default([]),
});
export type DepartmentPayload = z.infer<typeof departmentPayload>;

export const departmentArchivePayload = z.object({ archive: z.boolean({ error: 'Campo obrigatório' }) });
