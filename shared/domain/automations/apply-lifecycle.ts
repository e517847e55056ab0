/**
 * Carrying out the conversation lifecycle's transition (transition.ts) on a contact: what it
 * changes on the contact (the state itself, status, assignee, department), the lines it writes
 * (automated messages, which the outbound stream sends like any message of ours, and system lines
 * for what an automation moved), and the transaction members it adds (timers armed and cancelled,
 * a rating). The caller writes all of it in the one transaction that changes the conversation
 * (change-conversation.ts, record-message.ts), under the contact's version: a retried write
 * re-reads the contact and decides again, so an automated message is never stored twice.
 */
import { fillAutomationText, menuChoices, ratingChoices } from '#contracts/automations.ts';
import type { ContactFields, ContactItem } from '#db/contacts.ts';
import { armTimerStep, cancelTimerStep, conversationEventStep, ratingStep, timerItem } from '#db/conversation-timers.ts';
import type { MessageItem } from '#db/messages.ts';
import type { Steps } from '#db/transaction.ts';
import { automatedMessage, conversationLine } from '../conversations/conversation-lines.ts';
import { routedText } from '../conversations/inbound-routing.ts';
import type { Ports } from '../ports.ts';
import type { AutomationContext } from './automation-context.ts';
import { conversationEvents, derivedLifecycle } from './conversation-events.ts';
import type { LifecycleEvent, LifecycleState } from './lifecycle.ts';
import { transition } from './transition.ts';

export interface LifecycleOutcome {
  changes: Partial<ContactFields>;
  lines: MessageItem[];
  steps: Steps;
  /** The lifecycle asked for a member of this department in turn (round-robin). */
  roundRobin: { departmentId: string | null; maxOpenPerAgent: number } | null;
  /** The timers the outcome arms or cancels, by name (the firer leaves their items to these members). */
  timers: ReadonlySet<string>;
}

/** Who moved the conversation: the team writes its own lines; a customer's message, a timer or round-robin gets the automation's. */
export type LifecycleCause = 'customer' | 'team' | 'timer' | 'automation';

export const assignedText = (name: string) => `Atribuída a ${name}`;
export const inactivityClosedText = 'Conversa encerrada por inatividade';

/**
 * The contact's lifecycle state, or one read from its status, assignee and the protocol reports
 * counted (a conversation from before automations, or of an account running none:
 * conversation-events.ts).
 */
export function lifecycleOf(contact: ContactItem): LifecycleState {
  const stored = contact.lifecycle as LifecycleState | undefined;
  return stored ?? derivedLifecycle(contact);
}

/** Whether a state is a conversation going on (not resolved, not waiting for a score). */
export const isGoingOn = (state: Pick<LifecycleState, 'kind'>) => state.kind !== 'resolved' && state.kind !== 'rating';

/** A protocol people can read out: the day and four characters ('20261127-7K2Q'). */
export function newProtocol(ports: Ports, at: number): string {
  const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
  return `${day}-${ports.newId(at).slice(-4).toUpperCase()}`;
}

/**
 * Runs one event through the lifecycle for this contact at `at` (epoch ms) and turns the effects
 * into the write. Null when nothing changes (a stale timer, an event the state ignores).
 */
export function applyLifecycle(
  ports: Ports,
  contact: ContactItem,
  event: LifecycleEvent,
  ctx: AutomationContext,
  options: { at: number; cause: LifecycleCause },
): LifecycleOutcome | null {
  const before = lifecycleOf(contact);
  const moved = transition(before, event, ctx.settings, options.at);
  // Nothing moved and nothing to count (an answer after the first one, a stale timer).
  const still = moved.effects.length === 0 && JSON.stringify(moved.state) === JSON.stringify(before);
  if (still && !(event.kind === 'agent_reply' && contact.conversationStats && !contact.conversationStats.firstResponseAt)) return null;

  const changes: Partial<ContactFields> = { lifecycle: moved.state };
  const lines: MessageItem[] = [];
  const timers = new Map<string, Steps[string]>();
  const steps: Steps = {};
  let roundRobin: LifecycleOutcome['roundRobin'] = null;
  let department = contact.department ?? null;
  let user = contact.user ?? null;
  let clock = options.at;
  const nextAt = () => clock++;
  const byAutomation = options.cause !== 'team';

  for (const effect of moved.effects) {
    switch (effect.kind) {
      case 'set_status':
        changes.status = effect.status;
        if (effect.status === 'resolved' && options.cause === 'timer' && event.kind === 'timer_fired' && event.name === 'inactivity_close') {
          lines.push(conversationLine(ports, contact, 'system', inactivityClosedText, null, nextAt()));
        }
        break;
      case 'assign': {
        user = effect.userId ? (ctx.users.get(effect.userId) ?? { id: effect.userId, name: 'Usuário removido' }) : null;
        changes.userId = user?.id ?? null;
        changes.user = user;
        if (user && byAutomation) lines.push(conversationLine(ports, contact, 'system', assignedText(user.name), null, nextAt()));
        break;
      }
      case 'set_department': {
        department = effect.departmentId ? (ctx.departments.get(effect.departmentId) ?? { id: effect.departmentId, name: 'Departamento removido' }) : null;
        changes.departmentId = department?.id ?? null;
        changes.department = department;
        if (department && byAutomation) lines.push(conversationLine(ports, contact, 'system', routedText(department.name), null, nextAt()));
        break;
      }
      case 'send': {
        const text = fillAutomationText(effect.template, {
          contact: { name: contact.name },
          department,
          protocol: moved.state.protocol,
          agent: user,
        });
        if (text.trim()) lines.push(automatedMessage(ports, contact, text, effect.rule, nextAt(), choicesOf(effect.rule, ctx)));
        break;
      }
      case 'schedule_timer':
        timers.set(
          effect.name,
          armTimerStep(timerItem({ accountId: contact.accountId, contactId: contact.id, name: effect.name, version: effect.version, dueAt: effect.at })),
        );
        break;
      case 'cancel_timer':
        timers.set(effect.name, cancelTimerStep(contact.accountId, contact.id, effect.name));
        break;
      case 'record_rating': {
        const rated = {
          accountId: contact.accountId,
          contactId: contact.id,
          serviceId: contact.serviceId,
          protocol: effect.protocol,
          score: effect.score,
          userId: user?.id ?? null,
          departmentId: department?.id ?? null,
        };
        const ratedAt = new Date(options.at).toISOString();
        steps.rating = ratingStep({ ...rated, late: effect.late, ratedAt });
        // Reports read ratings by time, with the other conversation events (ADR-0234).
        steps.event_rated = conversationEventStep({ ...rated, at: ratedAt, kind: 'rated' });
        break;
      }
      case 'request_round_robin':
        roundRobin = { departmentId: effect.departmentId, maxOpenPerAgent: effect.maxOpenPerAgent };
        break;
    }
  }
  for (const [name, step] of timers) steps[`timer_${name}`] = step;
  Object.assign(steps, conversationEvents(contact, before, moved.state, event, changes, options));
  return { changes, lines, steps, roundRobin, timers: new Set(timers.keys()) };
}

/** The options a rule's message offers: a menu's (rule `menu:<id>`) or the rating question's; none for the others. */
function choicesOf(rule: string, ctx: AutomationContext): MessageItem['choices'] {
  if (rule === 'rating_question') return ratingChoices.map((c) => ({ ...c }));
  if (!rule.startsWith('menu:')) return undefined;
  const menus = ctx.settings.menu?.menus ?? [];
  const node = menus.find((m) => m.id === rule.slice('menu:'.length));
  return node ? menuChoices(node, node.id === menus[0]?.id) : undefined;
}
