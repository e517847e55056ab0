/**
 * The account's automations and each connection's menu as settings documents
 * (docs/conversation-lifecycle.md, 'Automações' and 'Menu de atendimento' in docs/product.md#screens):
 * read by members and by the lifecycle, saved whole by admins. Departments and people named must
 * exist and not be archived when saved; one archived later stays named until the next save, and
 * the lifecycle treats it as the department or person it was. Why documents of their own: ADR-0215.
 */
import {
  type AutomationSettings,
  type AutomationSettingsAnswer,
  automationTexts,
  type ConnectionMenu,
  type ConnectionMenuAnswer,
  defaultAutomationSettings,
} from '#contracts/automations.ts';
import { errorTexts } from '#contracts/errors.ts';
import { getAccountSetting, putAccountSetting } from '#db/account-settings.ts';
import type { AccountSettingName } from '#db/keys.ts';
import { accountUsers } from '#db/users.ts';
import { accountDepartments } from '../departments/departments.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { loadService } from '../services/services.ts';
import type { AccountSession } from '../session.ts';
import { forgetAutomationContext } from './automation-context.ts';

const menuSetting = (serviceId: string): AccountSettingName => `menu#${serviceId}`;

/** The account's automations as saved, or `defaultAutomationSettings` (all switched off). */
export async function accountAutomationSettings(ports: Ports, accountId: string): Promise<AutomationSettings> {
  const item = await getAccountSetting<AutomationSettings>(ports.table, accountId, 'automations');
  return { ...defaultAutomationSettings, ...item?.value };
}

/** A connection's menu as saved; null when none was saved (no menu: conversations go straight to the queue). */
export async function connectionMenuOf(ports: Ports, accountId: string, serviceId: string): Promise<ConnectionMenu | null> {
  const item = await getAccountSetting<ConnectionMenu>(ports.table, accountId, menuSetting(serviceId));
  return item?.value ?? null;
}

type Reference = { path: string; id: string };

/** Refuses (400, a field message on each path) departments and people that do not exist or are archived. */
async function checkReferences(ports: Ports, accountId: string, departments: Reference[], users: Reference[]): Promise<void> {
  const [knownDepartments, knownUsers] = await Promise.all([
    departments.length ? accountDepartments(ports, accountId) : [],
    users.length ? accountUsers(ports.table, accountId) : [],
  ]);
  const activeDepartments = new Set(knownDepartments.filter((d) => !d.archivedAt).map((d) => d.id));
  const activeUsers = new Set(knownUsers.filter((u) => !u.archivedAt).map((u) => u.id));
  const details = [
    ...departments.filter((r) => !activeDepartments.has(r.id)).map((r) => ({ path: r.path, message: automationTexts.departmentMissing })),
    ...users.filter((r) => !activeUsers.has(r.id)).map((r) => ({ path: r.path, message: automationTexts.userMissing })),
  ].sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  if (details.length) throw fail.invalid(errorTexts.invalidParams, details);
}

export async function getAutomations(ports: Ports, session: AccountSession): Promise<AutomationSettingsAnswer> {
  const item = await getAccountSetting<AutomationSettings>(ports.table, session.accountId, 'automations');
  // A document saved before a rule existed gets that rule's defaults.
  return item
    ? { ...defaultAutomationSettings, ...item.value, saved: true, updatedAt: item.updatedAt }
    : { ...defaultAutomationSettings, saved: false, updatedAt: null };
}

export async function saveAutomations(ports: Ports, session: AccountSession, settings: AutomationSettings): Promise<AutomationSettingsAnswer> {
  const moveTo = settings.waitingTooLong;
  await checkReferences(ports, session.accountId, moveTo.enabled ? [{ path: 'waitingTooLong.departmentId', id: moveTo.departmentId }] : [], []);
  const item = await putAccountSetting(ports.table, session.accountId, 'automations', settings, {
    userId: session.user.id,
    now: ports.clock().toISOString(),
  });
  forgetAutomationContext(session.accountId);
  return { ...item.value, saved: true, updatedAt: item.updatedAt };
}

/** A connection's menu; 404 for a connection the account does not have. */
export async function getConnectionMenu(ports: Ports, session: AccountSession, serviceId: string): Promise<ConnectionMenuAnswer> {
  await loadService(ports, session, serviceId);
  const item = await getAccountSetting<ConnectionMenu>(ports.table, session.accountId, menuSetting(serviceId));
  return { menu: item?.value ?? null, updatedAt: item?.updatedAt ?? null };
}

export async function saveConnectionMenu(ports: Ports, session: AccountSession, serviceId: string, menu: ConnectionMenu): Promise<ConnectionMenuAnswer> {
  await loadService(ports, session, serviceId);
  const departments: Reference[] = [];
  const users: Reference[] = [];
  if (menu.timeoutDepartmentId !== null) departments.push({ path: 'timeoutDepartmentId', id: menu.timeoutDepartmentId });
  for (const [i, node] of menu.menus.entries()) {
    for (const [j, { action }] of node.options.entries()) {
      const path = `menus.${i}.options.${j}.action`;
      if (action.kind === 'department') departments.push({ path: `${path}.departmentId`, id: action.departmentId });
      if (action.kind === 'user') users.push({ path: `${path}.userId`, id: action.userId });
    }
  }
  await checkReferences(ports, session.accountId, departments, users);
  const item = await putAccountSetting(ports.table, session.accountId, menuSetting(serviceId), menu, {
    userId: session.user.id,
    now: ports.clock().toISOString(),
  });
  forgetAutomationContext(session.accountId);
  return { menu: item.value, updatedAt: item.updatedAt };
}
