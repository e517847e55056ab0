/**
 * Departments (docs/product.md#team-inbox): admins create, rename and archive them and choose their users. Members
 * of a department see its unassigned conversations; a connection may route new conversations to
 * one (`defaultDepartmentId`), and conversations are transferred to them.
 */
import type { Department, DepartmentPayload } from '#contracts/departments.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { errorTexts } from '#contracts/errors.ts';
import type { ListQuery } from '#contracts/list-query.ts';
import type { CatalogueFields, CatalogueItem } from '#db/catalogues.ts';
import { accountUsers } from '#db/users.ts';
import { catalogue } from '../catalogue.ts';
import { fail } from '../errors.ts';
import { applyListQuery, fold, type ListRules } from '../list-query.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

export interface DepartmentFields extends CatalogueFields {
  name: string;
  userIds: string[];
  archivedAt: string | null;
}
export type DepartmentItem = CatalogueItem<DepartmentFields>;

export const departmentListRules: ListRules = {
  fields: ['id', 'name', 'userIds', 'archivedAt', 'createdAt', 'updatedAt'],
  defaultOrder: [['name', 'ASC']],
};

const departments = catalogue<DepartmentFields>({ kind: 'department', uniqueField: 'name', takenText: 'Já existe um departamento com este nome' });

export function toDepartment(item: DepartmentItem): Department {
  return { id: item.id, name: item.name, userIds: item.userIds, archivedAt: item.archivedAt, createdAt: item.createdAt, updatedAt: item.updatedAt };
}

export function accountDepartments(ports: Ports, accountId: string): Promise<DepartmentItem[]> {
  return departments.all(ports, accountId);
}

/** A department of the account, or undefined. */
export function findDepartment(ports: Ports, accountId: string, id: string): Promise<DepartmentItem | undefined> {
  return departments.find(ports, accountId, id);
}

export async function listDepartments(ports: Ports, session: AccountSession, q: ListQuery): Promise<ListAnswer<Department>> {
  const items = await accountDepartments(ports, session.accountId);
  return applyListQuery(items.map(toDepartment), q);
}

export async function getDepartment(ports: Ports, session: AccountSession, id: string): Promise<Department> {
  return toDepartment(await departments.load(ports, session, id));
}

/** Every chosen user must be one of the account's. */
async function checkUsers(ports: Ports, accountId: string, userIds: string[]): Promise<string[]> {
  const unique = [...new Set(userIds)];
  if (!unique.length) return unique;
  const known = new Set((await accountUsers(ports.table, accountId)).map((u) => u.id));
  const problems = unique.flatMap((id, i) => (known.has(id) ? [] : [{ path: `userIds.${i}`, message: 'Usuário não encontrado' }]));
  if (problems.length) throw fail.invalid(errorTexts.invalidParams, problems);
  return unique;
}

export async function createDepartment(ports: Ports, session: AccountSession, payload: DepartmentPayload): Promise<Department> {
  const userIds = await checkUsers(ports, session.accountId, payload.userIds);
  return toDepartment(await departments.create(ports, session, { unique: fold(payload.name), name: payload.name, userIds, archivedAt: null }));
}

/** Renames a department and sets its users. */
export async function updateDepartment(ports: Ports, session: AccountSession, id: string, payload: DepartmentPayload): Promise<Department> {
  const current = await departments.load(ports, session, id);
  const userIds = await checkUsers(ports, session.accountId, payload.userIds);
  return toDepartment(await departments.replace(ports, current, { name: payload.name, unique: fold(payload.name), userIds }));
}

/**
 * Archives or brings back a department. An archived one takes no new conversations (transfers,
 * a connection's routing); the conversations it has stay where they are, visible to its users.
 */
export async function archiveDepartment(ports: Ports, session: AccountSession, id: string, archive: boolean): Promise<Department> {
  const current = await departments.load(ports, session, id);
  if (Boolean(current.archivedAt) === archive) return toDepartment(current);
  return toDepartment(await departments.replace(ports, current, { archivedAt: archive ? ports.clock().toISOString() : null }));
}
