/**
 * The team's moves (take, transfer, release, resolve, reopen, a reply) run through the conversation
 * lifecycle where the account runs automations: the move's own change (its system line, its
 * assignee) and the lifecycle's (its state, timers, the closing message and the rating question)
 * are written together, the lifecycle's view of status, assignee and department winning so they
 * stay in step (docs/conversation-lifecycle.md). Where none is on, the move is written alone, with
 * the conversation events reports count (conversation-events.ts).
 */
import type { ContactItem } from '#db/contacts.ts';
import type { ConversationChange } from '../conversations/change-conversation.ts';
import type { Ports } from '../ports.ts';
import { applyLifecycle } from './apply-lifecycle.ts';
import { type AutomationContext, automationContext } from './automation-context.ts';
import { eventsWithoutAutomations } from './conversation-events.ts';
import type { LifecycleEvent } from './lifecycle.ts';
import type { TurnAfterMove } from './assign-in-turn.ts';

/** The lifecycle's context for a conversation's connection, read once however often the change is retried. */
export function automationsOnce(ports: Ports, accountId: string): (serviceId: string) => Promise<AutomationContext | null> {
  const read = new Map<string, Promise<AutomationContext | null>>();
  return (serviceId) => {
    let known = read.get(serviceId);
    if (!known) {
      known = automationContext(ports, accountId, serviceId);
      read.set(serviceId, known);
    }
    return known;
  };
}

/** A team move's change with the lifecycle's for `event` (none: the move alone). */
export function withLifecycle(
  ports: Ports,
  contact: ContactItem,
  change: ConversationChange,
  event: LifecycleEvent | null,
  automations: AutomationContext | null,
  turn?: TurnAfterMove,
): ConversationChange {
  if (!event || contact.contactType !== 'user') {
    turn?.note(null);
    return change;
  }
  if (!automations) {
    turn?.note(null);
    if (!change) return change;
    // The move alone, and the events reports count (ADR-0234), at the lifecycle's time.
    const changes = { ...change.changes };
    const steps = eventsWithoutAutomations(contact, event, changes, { at: ports.clock().getTime() + 1, cause: 'team' });
    return { ...change, changes, steps: { ...change.steps, ...steps } };
  }
  // After the move's own line (written at the clock's time).
  const outcome = applyLifecycle(ports, contact, event, automations, { at: ports.clock().getTime() + 1, cause: 'team' });
  turn?.note(outcome);
  if (!outcome) return change;
  return {
    changes: { ...change?.changes, ...outcome.changes },
    lines: [...(change?.lines ?? []), ...outcome.lines],
    steps: { ...change?.steps, ...outcome.steps },
  };
}
