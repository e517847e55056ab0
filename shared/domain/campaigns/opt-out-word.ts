/** The word a campaign's opt-out hint names: the account's first opt-out word (ADR-0225), as the owner typed it. */
import type { Ports } from '../ports.ts';
import { automationSettingsOf } from '../automations/automation-context.ts';

export async function campaignOptOutWord(ports: Ports, accountId: string): Promise<string> {
  const settings = await automationSettingsOf(ports, accountId);
  return settings.optOut.words[0] ?? 'SAIR';
}
