/**
 * Round-robin ('Distribuição automática', docs/conversation-lifecycle.md#round-robin): when the
 * lifecycle asks for it (a conversation entered a queue with round-robin on), the department's
 * members (every active person of the account for the queue of no department) take turns: online
 * ones (a realtime connection open) under the cap of open conversations each, in a fixed order
 * after the last one picked in that queue (`pickRoundRobin`). The pick is answered to the lifecycle
 * as an assignment, with the line 'Atribuída a Ana', in the transaction that also moves the queue's
 * turn; a conversation that left the queue meanwhile (taken, transferred, answered) is left alone.
 * Nobody fits: it waits in the queue.
 *
 * The cap holds while the open-conversation index lags (ADR-0221): the same
 * transaction moves the account's ledger of recent assignments on condition of the version read,
 * so assignments in one account are serialised (a loser reads again and picks again), and the
 * count unites the index's set with the ledger's conversations read strongly (`openCounts`).
 */
import { getContactItem } from '#db/contacts.ts';
import { armTimer, timerItem } from '#db/conversation-timers.ts';
import { lastPickedIn, ledgerStep, turnLedger, turnStep } from '#db/round-robin-turns.ts';
import { accountConnections } from '#db/ws-connections.ts';
import { ConversationKeptChanging, changeConversation } from '../conversations/change-conversation.ts';
import { findDepartment } from '../departments/departments.ts';
import type { Ports } from '../ports.ts';
import { applyLifecycle, type LifecycleOutcome, lifecycleOf } from './apply-lifecycle.ts';
import type { AutomationContext } from './automation-context.ts';
import { keptAssignments, openCounts } from './open-counts.ts';
import { pickRoundRobin } from './round-robin.ts';

export interface RoundRobinRequest {
  departmentId: string | null;
  maxOpenPerAgent: number;
}

/** Picks and assigns; answers who got the conversation, or null (nobody fits, or it left the queue). */
export async function assignInTurn(
  ports: Ports,
  at: { accountId: string; contactId: string },
  request: RoundRobinRequest,
  automations: AutomationContext,
): Promise<string | null> {
  const department = request.departmentId ? await findDepartment(ports, at.accountId, request.departmentId) : undefined;
  if (request.departmentId && (!department || department.archivedAt)) return null;
  const candidates = department ? department.userIds.filter((id) => automations.users.has(id)) : [...automations.users.keys()];
  if (!candidates.length) return null;

  let assigned: string | null = null;
  let nobodyFits = false;
  // Each attempt reads everything again: a refusal (the contact or the ledger moved) means another
  // assignment may have taken the place this one counted on.
  try {
    await changeConversation(ports, at.accountId, at.contactId, async (contact) => {
      assigned = null;
      nobodyFits = false;
      const state = lifecycleOf(contact);
      // Taken, transferred or answered meanwhile: no longer this queue's to hand out.
      if (state.kind !== 'waiting' || contact.userId || (contact.departmentId ?? null) !== request.departmentId) return null;
      const now = ports.clock();
      const [connections, turn, ledger] = await Promise.all([
        accountConnections(ports.table, at.accountId, Math.floor(now.getTime() / 1000)),
        lastPickedIn(ports.table, at.accountId, request.departmentId),
        turnLedger(ports.table, at.accountId),
      ]);
      const online = new Set(connections.map((c) => c.userId));
      const recent = keptAssignments(ledger.recent, now.getTime());
      const counts = await openCounts(
        ports,
        at.accountId,
        candidates.filter((userId) => online.has(userId)),
        recent,
      );
      const members = candidates.map((userId) => ({ userId, online: online.has(userId), openCount: counts.get(userId) ?? 0 }));
      const picked = pickRoundRobin(members, turn, request.maxOpenPerAgent);
      if (!picked) {
        nobodyFits = true;
        return null;
      }
      const outcome = applyLifecycle(ports, contact, { kind: 'agent_assign', userId: picked }, automations, { at: now.getTime(), cause: 'automation' });
      if (!outcome) return null;
      assigned = picked;
      return {
        changes: outcome.changes,
        lines: outcome.lines,
        steps: {
          ...outcome.steps,
          turn: turnStep(at.accountId, request.departmentId, picked, now.toISOString()),
          ledger: ledgerStep(
            at.accountId,
            ledger.version,
            keptAssignments([...recent, { contactId: at.contactId, userId: picked, at: now.getTime() }], now.getTime()),
          ),
        },
      };
    });
  } catch (error) {
    // A burst of assignments in the account outlasted the attempts: this one waits for the retry.
    if (!(error instanceof ConversationKeptChanging)) throw error;
    assigned = null;
    nobodyFits = true;
  }
  if (nobodyFits) {
    // Nobody online with room (or no turn won): asked again shortly (the timer poller), so someone
    // who comes online or frees a place gets it without waiting for the queue's next conversation.
    const now = ports.clock().getTime();
    await armTimer(ports.table, timerItem({ accountId: at.accountId, contactId: at.contactId, name: turnRetryTimer, version: now, dueAt: now + turnRetryMs }));
  }
  return assigned;
}

/** The timer that asks round-robin again for a conversation nobody could take (not one of the lifecycle's). */
export const turnRetryTimer = 'round_robin';
/** How soon a conversation nobody could take is offered again. */
export const turnRetryMs = 60_000;

/**
 * A round-robin retry fired (fire-timers.ts): the conversation, if it still waits unassigned in a
 * queue with round-robin on, is offered again (and the retry armed again when nobody fits).
 * Answers whether it was handed to someone.
 */
export async function retryTurn(ports: Ports, at: { accountId: string; contactId: string }, automations: AutomationContext | null): Promise<boolean> {
  const roundRobin = automations?.settings.automations.roundRobin;
  if (!automations || !roundRobin?.enabled) return false;
  const contact = await getContactItem(ports.table, at.accountId, at.contactId, true);
  if (!contact || contact.userId || lifecycleOf(contact).kind !== 'waiting') return false;
  const assigned = await assignInTurn(ports, at, { departmentId: contact.departmentId ?? null, maxOpenPerAgent: roundRobin.maxOpenPerAgent }, automations);
  return assigned !== null;
}

/**
 * The round-robin a move asked for, carried out once the move is written: a move's decision may
 * run more than once (a retried transaction), so the last decision's request is the one kept.
 */
export class TurnAfterMove {
  private request: RoundRobinRequest | null = null;

  /** Keeps the request of this decision (none: a former decision's is dropped). */
  note(outcome: Pick<LifecycleOutcome, 'roundRobin'> | null): void {
    this.request = outcome?.roundRobin ?? null;
  }

  async run(ports: Ports, at: { accountId: string; contactId: string }, automations: AutomationContext | null): Promise<void> {
    if (this.request && automations) await assignInTurn(ports, at, this.request, automations);
  }
}
