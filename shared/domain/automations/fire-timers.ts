/**
 * Fires the conversation lifecycle's due timers (docs/conversation-lifecycle.md#timers, ADR-0214): every minute the poller (functions/schedules/fire-timers.ts
 * in the cloud, the local runtime's own interval) reads the timers due by now on each shard and
 * runs each through the lifecycle in the write that moves its conversation, taking the timer's item
 * away in the same transaction. A timer whose version is no longer the armed one (cancelled,
 * replaced, its state left) changes nothing; one of a conversation gone (deleted, merged) or of an
 * account whose automations were switched off is just taken away. A run that dies leaves the
 * timers due: the next run takes them, so a timer fires at least once, at most about a minute late.
 */
import { dropTimer, dueTimersOf, firedTimerStep, type TimerItem, timerShards } from '#db/conversation-timers.ts';
import { changeConversation } from '../conversations/change-conversation.ts';
import { DomainError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { applyLifecycle } from './apply-lifecycle.ts';
import { automationsOnce } from './team-moves.ts';
import { retryTurn, TurnAfterMove, turnRetryTimer } from './assign-in-turn.ts';
import { getContactItem } from '#db/contacts.ts';
import type { AutomationContext } from './automation-context.ts';
import { type TimerName, timerNames } from './lifecycle.ts';

export interface FiredTimers {
  fired: number;
  stale: number;
  dropped: number;
}

/** Fires every timer due by the ports' clock; answers how many acted, were stale, or were dropped. */
export async function fireDueTimers(ports: Ports): Promise<FiredTimers> {
  const now = ports.clock();
  const result: FiredTimers = { fired: 0, stale: 0, dropped: 0 };
  const contexts = new Map<string, ReturnType<typeof automationsOnce>>();
  for (let shard = 0; shard < timerShards; shard++) {
    for (;;) {
      const due = await dueTimersOf(ports.table, shard, now.toISOString());
      for (const timer of due) result[await fire(ports, timer, contexts)]++;
      if (due.length < 100) break;
    }
  }
  return result;
}

async function fire(ports: Ports, timer: TimerItem, contexts: Map<string, ReturnType<typeof automationsOnce>>): Promise<keyof FiredTimers> {
  let automationsOf = contexts.get(timer.accountId);
  if (!automationsOf) {
    automationsOf = automationsOnce(ports, timer.accountId);
    contexts.set(timer.accountId, automationsOf);
  }
  // Round-robin's retry: offered again, and taken away unless that armed it again.
  if (timer.name === turnRetryTimer) {
    const contact = await getContactItem(ports.table, timer.accountId, timer.contactId);
    const handed = contact ? await retryTurn(ports, timer, await automationsOf(contact.serviceId)) : false;
    await dropTimer(ports.table, timer);
    return handed ? 'fired' : 'stale';
  }
  const name = timer.name as TimerName;
  let outcome = 'stale' as keyof FiredTimers;
  const turn = new TurnAfterMove();
  let context: AutomationContext | null = null;
  try {
    await changeConversation(ports, timer.accountId, timer.contactId, async (contact) => {
      const automations = await automationsOf(contact.serviceId);
      context = automations;
      if (!automations || !timerNames.includes(name)) {
        outcome = 'dropped';
        return null;
      }
      const moved = applyLifecycle(ports, contact, { kind: 'timer_fired', name, version: timer.version }, automations, {
        at: ports.clock().getTime(),
        cause: 'timer',
      });
      turn.note(moved);
      if (!moved) {
        outcome = 'stale';
        return null;
      }
      outcome = 'fired';
      return {
        changes: moved.changes,
        lines: moved.lines,
        // The fired item goes with the move, unless the move re-arms or cancels that timer itself.
        steps: { ...moved.steps, ...(moved.timers.has(name) ? {} : { fired: firedTimerStep(timer) }) },
      };
    });
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'notFound')) throw error;
    outcome = 'dropped';
  }
  // A timer that moved the conversation into a queue (waiting too long) may have it handed out in turn.
  if (outcome === 'fired') await turn.run(ports, { accountId: timer.accountId, contactId: timer.contactId }, context);
  // Not carried out by a move: taken away while it is still the version read.
  if (outcome !== 'fired') await dropTimer(ports.table, timer);
  return outcome;
}
