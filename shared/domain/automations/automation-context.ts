/**
 * What the conversation lifecycle reads besides the conversation (docs/conversation-lifecycle.md):
 * the account's automations and business hours, the connection's menu and default department,
 * and the names its messages and lines show (departments, people). An account with no automation
 * switched on and no menu has none: its conversations move as the inbox moved them before
 * automations (inbound-routing.ts), and carry no lifecycle state.
 */
import type { AutomationSettings, ConnectionMenu } from '#contracts/automations.ts';
import { getServiceItem } from '#db/services.ts';
import { accountUsers } from '#db/users.ts';
import { accountBusinessHours } from '../business-hours/settings.ts';
import { accountDepartments } from '../departments/departments.ts';
import type { Ports } from '../ports.ts';
import type { LifecycleSettings } from './lifecycle.ts';
import { accountAutomationSettings, connectionMenuOf } from './settings.ts';

export interface AutomationContext {
  settings: LifecycleSettings;
  departments: ReadonlyMap<string, { id: string; name: string }>;
  users: ReadonlyMap<string, { id: string; name: string }>;
}

/** Whether anything automatic is switched on: a rule of the account, or the connection's menu. */
export function automationsOn(automations: AutomationSettings, menu: ConnectionMenu | null): boolean {
  const rules = [
    automations.greeting,
    automations.outOfHours,
    automations.noAnswer,
    automations.closing,
    automations.waitingTooLong,
    automations.inactivity,
    automations.rating,
    automations.roundRobin,
  ];
  return rules.some((rule) => rule.enabled) || Boolean(menu?.enabled);
}

/** The lifecycle's context for a conversation on this connection, or null when no automation is on. */
export async function automationContext(ports: Ports, accountId: string, serviceId: string): Promise<AutomationContext | null> {
  const [automations, menu] = await Promise.all([accountAutomationSettings(ports, accountId), connectionMenuOf(ports, accountId, serviceId)]);
  if (!automationsOn(automations, menu)) return null;
  const [{ hours }, service, departments, users] = await Promise.all([
    accountBusinessHours(ports, accountId),
    getServiceItem(ports.table, accountId, serviceId),
    accountDepartments(ports, accountId),
    accountUsers(ports.table, accountId),
  ]);
  return {
    settings: { automations, hours, menu: menu?.enabled ? menu : null, defaultDepartmentId: service?.defaultDepartmentId ?? null },
    departments: new Map(departments.map((d) => [d.id, { id: d.id, name: d.name }])),
    users: new Map(users.map((u) => [u.id, { id: u.id, name: u.name }])),
  };
}
