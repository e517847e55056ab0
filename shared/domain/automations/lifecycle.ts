/**
 * The conversation lifecycle (docs/conversation-lifecycle.md, ADR-0214):
 * one state machine every automation moves through. Its states, the events that move it, the
 * effects a move asks for, and how a state shows in the inbox (status, assignee, department) so the
 * inbox's filters and tabs keep working unchanged.
 */
import type { AutomationSettings, ConnectionMenu } from '#contracts/automations.ts';
import type { BusinessHours } from '#contracts/business-hours.ts';
import type { ConversationStatus } from '#contracts/conversation-labels.ts';

/**
 * - resolved: no conversation going on (a new contact, or one resolved and rated or never asked).
 * - bot: the customer is in the connection's menu.
 * - waiting: in a department's queue (or no department's), nobody's.
 * - assigned: someone's.
 * - rating: resolved, the score asked for; any message that is not a score starts a conversation as usual.
 */
export const lifecycleStates = ['resolved', 'bot', 'waiting', 'assigned', 'rating'] as const;
export type LifecycleKind = (typeof lifecycleStates)[number];

export const timerNames = ['menu_timeout', 'no_answer', 'waiting_too_long', 'inactivity_warning', 'inactivity_close'] as const;
export type TimerName = (typeof timerNames)[number];

/** The timers a state may hold; leaving the state cancels them all. */
export const timersOfState: Record<LifecycleKind, readonly TimerName[]> = {
  resolved: [],
  bot: ['menu_timeout'],
  waiting: ['no_answer', 'waiting_too_long', 'inactivity_warning', 'inactivity_close'],
  assigned: ['inactivity_warning', 'inactivity_close'],
  rating: [],
};

export interface LifecycleState {
  conversationId: string;
  kind: LifecycleKind;
  /** Counts every entry into a state (a re-entry too): automated messages are keyed on it. */
  entry: number;
  /** Epoch ms of the entry. */
  enteredAt: number;
  departmentId: string | null;
  userId: string | null;
  /** The protocol of the conversation going on, or of the last one. */
  protocol: string | null;
  /** In the menu: the path of menu ids from the first menu, and the invalid options typed in a row. */
  menu: { path: string[]; invalid: number } | null;
  /** The version of each armed timer; a timer firing with another version is stale and does nothing. */
  timers: Partial<Record<TimerName, number>>;
  /** The last timer version handed out: versions never repeat within a conversation. */
  timerSeq: number;
  /** The rules already sent in this entry. */
  sent: string[];
  /** The out-of-hours stretches answered and not over yet (kept across entries: one reply a stretch). */
  awaySpells: string[];
  /** The last score asked for: a late score for it is still recorded, once. */
  ratingRequest: { protocol: string; answered: boolean } | null;
}

export type LifecycleEvent =
  /** A customer's message; `protocol` is a fresh one, taken only when the message starts a conversation. */
  | { kind: 'customer_message'; text: string; protocol: string }
  /** A score from an interactive reply to the rating question of `protocol`. */
  | { kind: 'customer_score'; score: number; protocol: string }
  /** An option picked from an interactive menu (a typed digit arrives as a customer_message). */
  | { kind: 'menu_choice'; key: string; protocol: string }
  /** A person of the team wrote to the customer (notes and automated messages are not replies). */
  | { kind: 'agent_reply'; userId: string }
  /** Take, a transfer to a person (optionally with a department), or a round-robin pick. */
  | { kind: 'agent_assign'; userId: string; departmentId?: string | null }
  /** A transfer to a department's queue. */
  | { kind: 'agent_transfer_department'; departmentId: string }
  | { kind: 'agent_release' }
  | { kind: 'agent_resolve' }
  | { kind: 'agent_reopen' }
  | { kind: 'timer_fired'; name: TimerName; version: number }
  /** The account's automations, hours or the connection's menu changed. */
  | { kind: 'settings_changed' };

/** Everything the machine reads besides the state: the account's settings for this conversation's connection. */
export interface LifecycleSettings {
  automations: AutomationSettings;
  hours: BusinessHours;
  /** The conversation's connection's menu, if it has one. */
  menu: ConnectionMenu | null;
  /** The connection's default department (where a conversation without a menu starts). */
  defaultDepartmentId: string | null;
}

export type LifecycleEffect =
  /**
   * An automated message: stored marked automated, never counted as the team's answer, never
   * clearing unread, never changing the assignee. `idempotencyKey` is conversation:entry:rule:
   * a second effect with the same key is not sent again.
   */
  | { kind: 'send'; rule: string; idempotencyKey: string; template: string }
  /** A durable one-off timer: `id` names it (conversation:name), `version` tells a stale firing. */
  | { kind: 'schedule_timer'; id: string; name: TimerName; version: number; at: number }
  | { kind: 'cancel_timer'; id: string; name: TimerName; version: number }
  | { kind: 'set_status'; status: ConversationStatus }
  | { kind: 'assign'; userId: string | null }
  | { kind: 'set_department'; departmentId: string | null }
  /** Ask the round-robin picker (round-robin.ts) for a member of the department; it answers with agent_assign. */
  | { kind: 'request_round_robin'; departmentId: string | null; maxOpenPerAgent: number }
  | { kind: 'record_rating'; protocol: string; score: number; late: boolean };

export interface Transition {
  state: LifecycleState;
  effects: LifecycleEffect[];
}

/** How a state shows in the inbox: bot and waiting are pending, assigned is open, rating is resolved. */
export function statusOf(kind: LifecycleKind): ConversationStatus {
  return kind === 'assigned' ? 'open' : kind === 'bot' || kind === 'waiting' ? 'pending' : 'resolved';
}

/** A conversation's lifecycle before it had one (or rebuilt from the contact): resolved, someone's, or waiting. */
export function lifecycleFromContact(contact: {
  id: string;
  status?: ConversationStatus | null;
  userId?: string | null;
  departmentId?: string | null;
}): LifecycleState {
  const kind: LifecycleKind = contact.status === 'resolved' ? 'resolved' : contact.userId ? 'assigned' : 'waiting';
  return {
    conversationId: contact.id,
    kind,
    entry: 0,
    enteredAt: 0,
    departmentId: contact.departmentId ?? null,
    userId: contact.userId ?? null,
    protocol: null,
    menu: null,
    timers: {},
    timerSeq: 0,
    sent: [],
    awaySpells: [],
    ratingRequest: null,
  };
}
