/**
 * The conversation lifecycle's one transition function (docs/conversation-lifecycle.md, ADR-0214): a state, an event, the settings and the time give the next
 * state and the effects to carry out. Pure: no clock, no table, no channel; the caller stores the
 * state with the contact (under the contact's version, as every conversation change) and carries
 * out the effects. Rules kept here, whatever the order of events:
 * - an automated message goes at most once per state entry and rule (its idempotency key), and
 *   the out-of-hours reply at most once per out-of-hours stretch;
 * - a timer acts only while it is the armed version; leaving a state cancels its timers;
 * - automated messages and timers never change the assignee (only a menu's 'person' option, the
 *   customer's choice, and round-robin's answer do);
 * - the rating question never holds a message that is not a score.
 */
import { menuMessage } from '#contracts/automations.ts';
import { nextOpening, outOfHoursSpell, scheduleFor } from '../business-hours/business-hours.ts';
import {
  type LifecycleEffect,
  type LifecycleEvent,
  type LifecycleKind,
  type LifecycleSettings,
  type LifecycleState,
  statusOf,
  type TimerName,
  timersOfState,
  type Transition,
} from './lifecycle.ts';
import { parseScore } from './scores.ts';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

/** One transition's working copy: the state being built and the effects asked for so far. */
class Move {
  readonly effects: LifecycleEffect[] = [];
  constructor(
    public s: LifecycleState,
    readonly settings: LifecycleSettings,
    readonly now: number,
  ) {}

  get automations() {
    return this.settings.automations;
  }

  /** Enters a state (a re-entry too): its timers are cancelled and the inbox's view follows. */
  enter(kind: LifecycleKind, patch: Partial<Pick<LifecycleState, 'departmentId' | 'userId' | 'menu'>> = {}): void {
    const before = this.s;
    for (const name of Object.keys(before.timers) as TimerName[]) this.disarm(name);
    this.s = {
      ...this.s,
      ...patch,
      kind,
      entry: before.entry + 1,
      enteredAt: this.now,
      sent: [],
      timers: {},
      menu: kind === 'bot' ? (patch.menu ?? null) : null,
    };
    this.follow(before);
  }

  /** A change of department or assignee that keeps the state (a resolved conversation transferred). */
  patch(patch: Partial<Pick<LifecycleState, 'departmentId' | 'userId'>>): void {
    const before = this.s;
    this.s = { ...this.s, ...patch };
    this.follow(before);
  }

  private follow(before: LifecycleState): void {
    if (statusOf(before.kind) !== statusOf(this.s.kind)) this.effects.push({ kind: 'set_status', status: statusOf(this.s.kind) });
    if (before.userId !== this.s.userId) this.effects.push({ kind: 'assign', userId: this.s.userId });
    if (before.departmentId !== this.s.departmentId) this.effects.push({ kind: 'set_department', departmentId: this.s.departmentId });
  }

  /** An automated message of this entry, unless the rule already went in it or the text is empty. */
  send(rule: string, template: string): void {
    if (!template.trim() || this.s.sent.includes(rule)) return;
    this.s = { ...this.s, sent: [...this.s.sent, rule] };
    this.effects.push({ kind: 'send', rule, idempotencyKey: `${this.s.conversationId}:${this.s.entry}:${rule}`, template });
  }

  arm(name: TimerName, at: number): void {
    if (!timersOfState[this.s.kind].includes(name)) throw new Error(`Timer ${name} does not belong to state ${this.s.kind}`);
    this.disarm(name);
    const version = this.s.timerSeq + 1;
    this.s = { ...this.s, timerSeq: version, timers: { ...this.s.timers, [name]: version } };
    this.effects.push({ kind: 'schedule_timer', id: `${this.s.conversationId}:${name}`, name, version, at });
  }

  disarm(name: TimerName): void {
    const version = this.s.timers[name];
    if (version === undefined) return;
    const { [name]: _gone, ...rest } = this.s.timers;
    this.s = { ...this.s, timers: rest };
    this.effects.push({ kind: 'cancel_timer', id: `${this.s.conversationId}:${name}`, name, version });
  }

  isClosed(departmentId: string | null): boolean {
    return outOfHoursSpell(scheduleFor(this.settings.hours, departmentId), this.now) !== null;
  }

  /** The out-of-hours reply, once a stretch, when the conversation's department is closed now. */
  replyIfClosed(): void {
    const spell = outOfHoursSpell(scheduleFor(this.settings.hours, this.s.departmentId), this.now);
    if (!spell || !this.automations.outOfHours.enabled || this.s.awaySpells.includes(spell)) return;
    // A stretch whose opening has passed is over: forgotten, so the list stays short.
    const running = this.s.awaySpells.filter((s) => !(Date.parse(s.slice(s.lastIndexOf('@') + 1)) <= this.now));
    this.s = { ...this.s, awaySpells: [...running, spell] };
    this.send(`out_of_hours:${spell}`, this.automations.outOfHours.text);
  }

  /**
   * Into a department's queue. `customerWaits`: the customer's own move (a menu choice, a new
   * conversation, the menu's timeout) put them there, so a closed department answers out of hours.
   */
  enterWaiting(departmentId: string | null, customerWaits: boolean, answered = false): void {
    this.enter('waiting', { departmentId, userId: null });
    if (customerWaits) this.replyIfClosed();
    const { noAnswer, waitingTooLong, roundRobin } = this.automations;
    if (noAnswer.enabled && !answered) {
      // Counted from the next opening when closed: a night in the queue is not 'nobody answered'.
      const opening = nextOpening(scheduleFor(this.settings.hours, departmentId), this.now);
      if (opening !== null) this.arm('no_answer', opening + noAnswer.minutes * minuteMs);
    }
    if (waitingTooLong.enabled && waitingTooLong.departmentId !== departmentId) this.arm('waiting_too_long', this.now + waitingTooLong.minutes * minuteMs);
    if (roundRobin.enabled) this.effects.push({ kind: 'request_round_robin', departmentId, maxOpenPerAgent: roundRobin.maxOpenPerAgent });
  }

  enterMenu(path: string[], invalid = 0): void {
    this.enter('bot', { menu: { path, invalid }, userId: null, departmentId: null });
    if (this.settings.menu) this.arm('menu_timeout', this.now + this.settings.menu.timeoutMinutes * minuteMs);
  }

  sendMenu(): void {
    const node = this.currentMenu();
    if (node) this.send(`menu:${node.id}`, menuMessage(node, this.s.menu!.path.length === 1));
  }

  currentMenu() {
    const menu = this.settings.menu;
    const id = this.s.menu?.path.at(-1);
    return menu?.enabled ? menu.menus.find((m) => m.id === id) : undefined;
  }

  /** The department a conversation goes to when the menu is left without a choice. */
  get fallbackDepartment(): string | null {
    return this.settings.menu?.enabled ? this.settings.menu.timeoutDepartmentId : this.settings.defaultDepartmentId;
  }

  /** After a reply of the team: close after the customer's silence, warning before. */
  armInactivity(): void {
    const { inactivity } = this.automations;
    if (!inactivity.enabled) return;
    const closeAt = this.now + inactivity.closeAfterHours * hourMs;
    this.arm('inactivity_warning', closeAt - inactivity.warnBeforeMinutes * minuteMs);
    this.arm('inactivity_close', closeAt);
  }

  resolve(): void {
    const { closing, rating } = this.automations;
    // One question per protocol: a conversation reopened and resolved again is not asked twice.
    if (rating.enabled && this.s.protocol && this.s.ratingRequest?.protocol !== this.s.protocol) {
      this.enter('rating');
      this.s = { ...this.s, ratingRequest: { protocol: this.s.protocol, answered: false } };
    } else {
      this.enter('resolved');
    }
    if (closing.enabled) this.send('closing', closing.text);
    if (this.s.kind === 'rating') this.send('rating_question', rating.question);
  }

  /** A customer's message to a resolved conversation (or a non-score after the rating question). */
  startConversation(protocol: string): void {
    this.s = { ...this.s, protocol };
    if (this.automations.reopenToLastAgent && this.s.userId) {
      this.enter('assigned');
      this.replyIfClosed();
      return;
    }
    const menu = this.settings.menu;
    const firstDepartment = this.fallbackDepartment;
    if (this.isClosed(firstDepartment)) {
      // Out of hours: the out-of-hours reply alone, neither greeting nor menu (one message, never both).
      this.enterWaiting(firstDepartment, true);
      return;
    }
    if (menu?.enabled && menu.menus[0]) {
      this.enterMenu([menu.menus[0].id]);
      if (this.automations.greeting.enabled) this.send('greeting', this.automations.greeting.text);
      this.sendMenu();
      return;
    }
    this.enterWaiting(firstDepartment, true);
    if (this.automations.greeting.enabled) this.send('greeting', this.automations.greeting.text);
  }

  /** A key typed or picked in the menu. */
  choose(key: string): void {
    const node = this.currentMenu();
    const path = this.s.menu?.path ?? [];
    if (!node) {
      this.enterWaiting(this.fallbackDepartment, true);
      return;
    }
    if (key === '0') {
      this.enterMenu(path.length > 1 ? path.slice(0, -1) : path);
      this.sendMenu();
      return;
    }
    const option = node.options.find((o) => o.key === key);
    if (!option) {
      const invalid = (this.s.menu?.invalid ?? 0) + 1;
      if (invalid >= this.settings.menu!.maxInvalid) {
        this.enterWaiting(this.fallbackDepartment, true);
        return;
      }
      this.enterMenu(path, invalid);
      this.send('invalid_option', this.settings.menu!.invalidText);
      this.sendMenu();
      return;
    }
    const action = option.action;
    if (action.kind === 'department') this.enterWaiting(action.departmentId, true);
    else if (action.kind === 'submenu') {
      this.enterMenu([...path, action.menuId]);
      this.sendMenu();
    } else if (action.kind === 'answer') {
      this.enterMenu(path);
      this.send(`answer:${node.id}:${option.key}`, action.text);
    } else {
      this.enter('assigned', { userId: action.userId });
      this.replyIfClosed();
    }
  }

  recordScore(score: number, protocol: string): boolean {
    const request = this.s.ratingRequest;
    if (!request || request.answered || request.protocol !== protocol) return false;
    this.effects.push({ kind: 'record_rating', protocol, score, late: this.s.kind !== 'rating' });
    this.s = { ...this.s, ratingRequest: { ...request, answered: true } };
    return true;
  }

  fire(name: TimerName, version: number): void {
    const { automations } = this;
    switch (name) {
      case 'menu_timeout':
        this.enterWaiting(this.fallbackDepartment, true);
        return;
      case 'no_answer':
        if (!this.isClosed(this.s.departmentId)) this.send('no_answer', automations.noAnswer.text);
        return;
      case 'waiting_too_long':
        if (automations.waitingTooLong.departmentId !== this.s.departmentId) this.enterWaiting(automations.waitingTooLong.departmentId, false);
        return;
      case 'inactivity_warning':
        this.send(`inactivity_warning:${version}`, automations.inactivity.warningText);
        return;
      case 'inactivity_close':
        this.resolve();
        return;
    }
  }

  /** A timer whose feature was switched off is cancelled; the menu gone sends the customer on. */
  settle(): void {
    const { automations } = this;
    const off: Partial<Record<TimerName, boolean>> = {
      no_answer: !automations.noAnswer.enabled,
      waiting_too_long: !automations.waitingTooLong.enabled,
      inactivity_warning: !automations.inactivity.enabled,
      inactivity_close: !automations.inactivity.enabled,
    };
    for (const name of Object.keys(this.s.timers) as TimerName[]) if (off[name]) this.disarm(name);
    if (this.s.kind === 'bot' && !this.currentMenu()) this.enterWaiting(this.fallbackDepartment, true);
  }
}

export function transition(state: LifecycleState, event: LifecycleEvent, settings: LifecycleSettings, now: number): Transition {
  const m = new Move(state, settings, now);
  const kind = state.kind;
  const open = kind === 'bot' || kind === 'waiting' || kind === 'assigned';
  switch (event.kind) {
    case 'customer_message': {
      if (kind === 'resolved') m.startConversation(event.protocol);
      else if (kind === 'rating') {
        const score = parseScore(event.text);
        if (score !== null && m.recordScore(score, state.ratingRequest!.protocol)) {
          m.enter('resolved');
          m.send('rating_thanks', settings.automations.rating.thanks);
        } else m.startConversation(event.protocol);
      } else if (kind === 'bot') m.choose(event.text.trim());
      else {
        m.disarm('inactivity_warning');
        m.disarm('inactivity_close');
        m.replyIfClosed();
      }
      break;
    }
    case 'menu_choice':
      if (kind === 'bot') m.choose(event.key);
      else return transition(state, { kind: 'customer_message', text: event.key, protocol: event.protocol }, settings, now);
      break;
    case 'customer_score':
      if (m.recordScore(event.score, event.protocol) && kind === 'rating') {
        m.enter('resolved');
        m.send('rating_thanks', settings.automations.rating.thanks);
      }
      break;
    case 'agent_reply':
      if (kind === 'resolved' || kind === 'rating') m.enter('assigned', { userId: event.userId });
      else if (kind === 'bot') m.enterWaiting(state.departmentId, false, true);
      else if (kind === 'waiting') {
        m.disarm('no_answer');
        m.disarm('waiting_too_long');
      }
      m.armInactivity();
      break;
    case 'agent_assign': {
      const departmentId = event.departmentId === undefined ? state.departmentId : event.departmentId;
      if (!open) m.patch({ userId: event.userId, departmentId });
      else if (kind !== 'assigned' || state.userId !== event.userId || state.departmentId !== departmentId)
        m.enter('assigned', { userId: event.userId, departmentId });
      break;
    }
    case 'agent_transfer_department':
      if (!open) m.patch({ userId: null, departmentId: event.departmentId });
      else m.enterWaiting(event.departmentId, false);
      break;
    case 'agent_release':
      if (kind === 'assigned') m.enterWaiting(state.departmentId, false);
      else if (!open && state.userId) m.patch({ userId: null });
      break;
    case 'agent_resolve':
      if (open) m.resolve();
      break;
    case 'agent_reopen':
      if (!open) {
        if (state.userId) m.enter('assigned');
        else m.enterWaiting(state.departmentId, false);
      }
      break;
    case 'timer_fired': {
      // Stale: cancelled, replaced by a newer arming, or its state left. Nothing happens.
      if (state.timers[event.name] !== event.version) return { state, effects: [] };
      const { [event.name]: _fired, ...rest } = state.timers;
      m.s = { ...m.s, timers: rest };
      m.fire(event.name, event.version);
      break;
    }
    case 'settings_changed':
      m.settle();
      break;
  }
  return { state: m.s, effects: m.effects };
}
