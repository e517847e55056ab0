/**
 * The account's automations and each connection's menu as settings documents
 * (docs/conversation-lifecycle.md, 'Automações' and 'Menu de atendimento' in docs/product.md#screens):
 * read by members and by the lifecycle, saved whole by admins.
 */
import { type AutomationSettings, type ConnectionMenu, defaultAutomationSettings } from '#contracts/automations.ts';
import { getAccountSetting } from '#db/account-settings.ts';
import type { AccountSettingName } from '#db/keys.ts';
import type { Ports } from '../ports.ts';

const menuSetting = (serviceId: string): AccountSettingName => `menu#${serviceId}`;

/** The account's automations as saved, or `defaultAutomationSettings` (all switched off). */
export async function accountAutomationSettings(ports: Ports, accountId: string): Promise<AutomationSettings> {
  const item = await getAccountSetting<AutomationSettings>(ports.table, accountId, 'automations');
  return item?.value ?? defaultAutomationSettings;
}

/** A connection's menu as saved; null when none was saved (no menu: conversations go straight to the queue). */
export async function connectionMenuOf(ports: Ports, accountId: string, serviceId: string): Promise<ConnectionMenu | null> {
  const item = await getAccountSetting<ConnectionMenu>(ports.table, accountId, menuSetting(serviceId));
  return item?.value ?? null;
}
