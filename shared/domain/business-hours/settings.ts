/**
 * The account's business hours as a setting ('Horário de atendimento', docs/product.md#screens, docs/conversation-lifecycle.md#business-hours):
 * read by members (the inbox and the automations use them), saved whole by admins. Departments
 * named in it must exist and not be archived when saved; one archived later keeps its shifts until
 * the next save drops or fixes it.
 */
import { type BusinessHours, type BusinessHoursAnswer, defaultBusinessHours } from '#contracts/business-hours.ts';
import { errorTexts } from '#contracts/errors.ts';
import { getAccountSetting, putAccountSetting } from '#db/account-settings.ts';
import { accountDepartments } from '../departments/departments.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';
import { isOpen, nextOpening, scheduleFor } from './business-hours.ts';
import { forgetAutomationContext } from '../automations/automation-context.ts';
import { moveSchedulesToZone } from '../scheduled-messages/follow-time-zone.ts';

/** The account's hours as saved, or the default ones. */
export async function accountBusinessHours(ports: Pick<Ports, 'table'>, accountId: string): Promise<{ hours: BusinessHours; updatedAt: string | null }> {
  const item = await getAccountSetting<BusinessHours>(ports.table, accountId, 'business-hours');
  return item ? { hours: item.value, updatedAt: item.updatedAt } : { hours: defaultBusinessHours, updatedAt: null };
}

function answer(ports: Ports, hours: BusinessHours, updatedAt: string | null): BusinessHoursAnswer {
  const at = ports.clock().getTime();
  const schedule = scheduleFor(hours, null);
  const open = isOpen(schedule, at);
  const opensAt = open ? null : nextOpening(schedule, at);
  return { ...hours, saved: updatedAt !== null, updatedAt, now: { open, opensAt: opensAt === null ? null : new Date(opensAt).toISOString() } };
}

export async function getBusinessHours(ports: Ports, session: AccountSession): Promise<BusinessHoursAnswer> {
  const { hours, updatedAt } = await accountBusinessHours(ports, session.accountId);
  return answer(ports, hours, updatedAt);
}

export async function saveBusinessHours(ports: Ports, session: AccountSession, hours: BusinessHours): Promise<BusinessHoursAnswer> {
  if (hours.departments.length) {
    const known = new Map((await accountDepartments(ports, session.accountId)).map((d) => [d.id, d]));
    const details = hours.departments.flatMap((d, i) =>
      known.get(d.departmentId) && !known.get(d.departmentId)!.archivedAt
        ? []
        : [{ path: `departments.${i}.departmentId`, message: 'Departamento não encontrado' }],
    );
    if (details.length) throw fail.invalid(errorTexts.invalidParams, details);
  }
  // Stored in a stable order: by weekday and start, holidays by date.
  const byTime = <T extends { weekday: number; start: string }>(shifts: T[]) =>
    shifts.slice().sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start));
  const value: BusinessHours = {
    timeZone: hours.timeZone,
    shifts: byTime(hours.shifts),
    holidays: hours.holidays.slice().sort((a, b) => a.date.localeCompare(b.date)),
    departments: hours.departments.map((d) => ({ departmentId: d.departmentId, shifts: byTime(d.shifts) })),
  };
  const item = await putAccountSetting(ports.table, session.accountId, 'business-hours', value, { userId: session.user.id, now: ports.clock().toISOString() });
  forgetAutomationContext(session.accountId);
  // Waiting scheduled messages keep their wall-clock time in the saved zone (ADR-0237);
  // on every save, so a save that failed half way is finished by the next one.
  await moveSchedulesToZone(ports, session.accountId, value.timeZone);
  return answer(ports, item.value, item.updatedAt);
}
