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

/**
 * How long a process keeps an account's automation context: every inbound message and every send
 * asks for it, and most accounts have nothing on, so a fresh read each time would add two reads to
 * the busiest paths. A save in this process forgets it at once (`forgetAutomationContext`); in
 * another process (the cloud's functions and channel workers) a save takes effect within this long.
 */
export const automationContextTtlMs = 5_000;
const cacheLimit = 2_000;
const cached = new Map<string, { at: number; context: Promise<AutomationContext | null> }>();

const settingsCache = new Map<string, { at: number; settings: Promise<AutomationSettings> }>();

/** Drops an account's cached contexts and settings (its settings, hours, menus, departments or people changed). */
export function forgetAutomationContext(accountId: string): void {
  for (const key of cached.keys()) if (key.startsWith(`${accountId}:`)) cached.delete(key);
  settingsCache.delete(accountId);
}

/** The account's automation settings, kept as the context is (a send asks whether to sign). */
export function automationSettingsOf(ports: Ports, accountId: string): Promise<AutomationSettings> {
  const now = Date.now();
  const hit = settingsCache.get(accountId);
  if (hit && now - hit.at < automationContextTtlMs) return hit.settings;
  const settings = accountAutomationSettings(ports, accountId);
  settings.catch(() => settingsCache.delete(accountId));
  settingsCache.delete(accountId);
  settingsCache.set(accountId, { at: now, settings });
  if (settingsCache.size > cacheLimit) settingsCache.delete(settingsCache.keys().next().value!);
  return settings;
}

/** The lifecycle's context for a conversation on this connection, or null when no automation is on (kept a few seconds, see above). */
export function automationContext(ports: Ports, accountId: string, serviceId: string): Promise<AutomationContext | null> {
  const key = `${accountId}:${serviceId}`;
  const now = Date.now();
  const hit = cached.get(key);
  if (hit && now - hit.at < automationContextTtlMs) return hit.context;
  const context = readAutomationContext(ports, accountId, serviceId);
  // A failed read is not kept.
  context.catch(() => cached.delete(key));
  cached.delete(key);
  cached.set(key, { at: now, context });
  if (cached.size > cacheLimit) cached.delete(cached.keys().next().value!);
  return context;
}

async function readAutomationContext(ports: Ports, accountId: string, serviceId: string): Promise<AutomationContext | null> {
  const [automations, menu] = await Promise.all([automationSettingsOf(ports, accountId), connectionMenuOf(ports, accountId, serviceId)]);
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
