/**
 * The events reports read (a conversation started, its first answer by a person, its resolution;
 * its rating is written with the rating, apply-lifecycle.ts), written in the transaction of the
 * move that makes them; the contact keeps the conversation's start and first answer
 * (`conversationStats`) to measure them (docs/conversation-lifecycle.md, ADR-0234).
 *
 * Every conversation writes them, whatever the account's automations: where the lifecycle runs,
 * from its states before and after the move (`applyLifecycle`); where none is on, from states read
 * off the contact before and after the move (`eventsWithoutAutomations`), which moves as the inbox
 * moves it (inbound-routing.ts) and stores no lifecycle state.
 */
import type { ContactFields, ContactItem } from '#db/contacts.ts';
import { conversationEventStep } from '#db/conversation-timers.ts';
import type { Steps } from '#db/transaction.ts';
import type { LifecycleCause } from './apply-lifecycle.ts';
import { type LifecycleEvent, type LifecycleState, lifecycleFromContact } from './lifecycle.ts';

/**
 * The state a contact's fields say (no lifecycle stored): resolved, waiting or assigned by its
 * status and assignee, and the protocol reports last counted for it; a contact nobody has exchanged
 * a message with yet has no conversation going on.
 */
export function derivedLifecycle(contact: ContactItem): LifecycleState {
  const state = lifecycleFromContact(contact.lastMessageAt ? contact : { ...contact, status: 'resolved' });
  return { ...state, protocol: contact.conversationStats?.protocol ?? null };
}

/**
 * The events of a move in an account with no automation on, and `conversationStats` added to its
 * `changes`: a customer's message to a conversation not going on starts one (under a new
 * protocol, as the lifecycle would), a person's reply to one going on is its first answer, the
 * move to resolved its resolution. Reads nothing: the contact is the one the move writes under.
 */
export function eventsWithoutAutomations(
  contact: ContactItem,
  event: LifecycleEvent,
  changes: Partial<ContactFields>,
  options: { at: number; cause: LifecycleCause },
): Steps {
  // A stored state is the lifecycle's from when automations were on, stale since: the fields say where it is.
  const before = derivedLifecycle(contact);
  const moved = lifecycleFromContact({ ...contact, ...changes });
  const starts = event.kind === 'customer_message' && before.kind === 'resolved' && moved.kind !== 'resolved';
  const after = { ...moved, protocol: starts ? event.protocol : before.protocol };
  // Without automations a reply moves nothing: a conversation already resolved gets no first answer.
  if (event.kind === 'agent_reply' && after.kind === 'resolved') return {};
  return conversationEvents(contact, before, after, event, changes, options);
}

/** The events of a move from `before` to `after`, `conversationStats` added to `changes` when it moves. */
export function conversationEvents(
  contact: ContactItem,
  before: LifecycleState,
  after: LifecycleState,
  event: LifecycleEvent,
  changes: Partial<ContactFields>,
  options: { at: number; cause: LifecycleCause },
): Steps {
  const steps: Steps = {};
  const at = new Date(options.at).toISOString();
  let stats = contact.conversationStats;
  const base = {
    accountId: contact.accountId,
    contactId: contact.id,
    serviceId: contact.serviceId,
    at,
    userId: (changes.userId === undefined ? contact.userId : changes.userId) ?? null,
    departmentId: (changes.departmentId === undefined ? contact.departmentId : changes.departmentId) ?? null,
  };
  if (after.protocol && after.protocol !== before.protocol) {
    stats = { protocol: after.protocol, startedAt: at, firstResponseAt: null };
    changes.conversationStats = stats;
    steps.event_started = conversationEventStep({ ...base, protocol: after.protocol, kind: 'started' });
  }
  if (!stats || stats.protocol !== after.protocol) return steps;
  if (event.kind === 'agent_reply' && !stats.firstResponseAt) {
    changes.conversationStats = { ...stats, firstResponseAt: at };
    steps.event_first_response = conversationEventStep({
      ...base,
      userId: event.userId,
      protocol: stats.protocol,
      kind: 'first_response',
      waitMs: options.at - Date.parse(stats.startedAt),
    });
  }
  if (changes.status === 'resolved') {
    steps.event_resolved = conversationEventStep({
      ...base,
      protocol: stats.protocol,
      kind: 'resolved',
      handledMs: options.at - Date.parse(stats.startedAt),
      by: options.cause === 'timer' ? 'inactivity' : 'team',
    });
  }
  return steps;
}
