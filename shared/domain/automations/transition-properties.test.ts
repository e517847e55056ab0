/**
 * Properties of the conversation lifecycle over any sequence of customer messages and scores,
 * the team's moves, clock ticks (firing the timers that fall due, as the timer runner would),
 * duplicate and stale timer deliveries, and settings changes, on a fake clock starting at a random
 * instant of 2026 (nights, weekends, holidays, shift edges, DST changes), for an account in São
 * Paulo, New York or Lisbon.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../tests/support/property-runs.ts';
import { LifecycleDriver, menu, settings, withAutomations } from '../../../tests/support/lifecycle-world.ts';
import { type LifecycleEffect, type LifecycleSettings, type LifecycleState, lifecycleStates, statusOf, timersOfState } from './lifecycle.ts';
import { parseScore } from './scores.ts';

const minute = 60_000;

type Step =
  | { kind: 'customer'; text: string }
  | { kind: 'score'; score: number; protocolBack: number }
  | { kind: 'choice'; key: string }
  | { kind: 'reply'; userId: string }
  | { kind: 'assign'; userId: string; departmentId: string | null | undefined }
  | { kind: 'transfer'; departmentId: string }
  | { kind: 'release' }
  | { kind: 'resolve' }
  | { kind: 'reopen' }
  | { kind: 'tick'; ms: number }
  | { kind: 'redeliver'; pick: number }
  | { kind: 'settings'; variant: number };

const users = ['u-ana', 'u-bia', 'u-caio'];
const departments = ['vendas', 'financeiro', 'geral'];

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('customer' as const), text: fc.constantFrom('Oi', '1', '2', '3', '4', '0', '9', '5', '5️⃣', 'obrigado', '4.') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('score' as const), score: fc.integer({ min: 1, max: 5 }), protocolBack: fc.integer({ min: 0, max: 2 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('choice' as const), key: fc.constantFrom('0', '1', '2', '3', '4', '7') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), userId: fc.constantFrom(...users) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('assign' as const),
      userId: fc.constantFrom(...users),
      departmentId: fc.constantFrom<string | null | undefined>(undefined, null, ...departments),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transfer' as const), departmentId: fc.constantFrom(...departments) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'release' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'resolve' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 15 * minute }), fc.integer({ min: 1, max: 48 * 60 * minute })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settings' as const), variant: fc.integer({ min: 0, max: 3 }) }) },
);

/** The settings a run switches between: as set up, no menu, no rating, and going back to the last agent with round-robin. */
const variants: LifecycleSettings[] = [
  settings,
  { ...settings, menu: { ...menu, enabled: false } },
  withAutomations({ rating: { ...settings.automations.rating, enabled: false } }),
  withAutomations({ reopenToLastAgent: true, roundRobin: { enabled: true, maxOpenPerAgent: 2 } }),
];

/** The conversation as the inbox stores it, moved only by the effects. */
interface Projection {
  status: string;
  userId: string | null;
  departmentId: string | null;
}

function project(view: Projection, effects: LifecycleEffect[]): Projection {
  let next = view;
  for (const e of effects) {
    if (e.kind === 'set_status') next = { ...next, status: e.status };
    if (e.kind === 'assign') next = { ...next, userId: e.userId };
    if (e.kind === 'set_department') next = { ...next, departmentId: e.departmentId };
  }
  return next;
}

function checkState(state: LifecycleState): void {
  expect(lifecycleStates).toContain(state.kind);
  expect(state.menu !== null).toBe(state.kind === 'bot');
  for (const name of Object.keys(state.timers)) expect(timersOfState[state.kind]).toContain(name);
  if (state.kind === 'assigned') expect(state.userId).not.toBeNull();
  if (state.kind === 'bot' || state.kind === 'waiting') expect(state.userId).toBeNull();
  if (state.kind === 'rating') expect(state.ratingRequest?.answered).toBe(false);
  for (const version of Object.values(state.timers)) expect(version).toBeLessThanOrEqual(state.timerSeq);
}

/** Runs the steps, checking the rules after each; throws on the first broken one. */
function run(start: number, timeZone: string, steps: Step[]): void {
  const inZone = (base: LifecycleSettings): LifecycleSettings => ({ ...base, hours: { ...base.hours, timeZone } });
  const d = new LifecycleDriver({ at: new Date(start).toISOString(), settings: inZone(settings) });
  const keys = new Set<string>();
  const awaySpells = new Set<string>();
  const rated = new Set<string>();
  const protocols: string[] = [];
  let view: Projection = { status: 'resolved', userId: null, departmentId: null };
  /** The timers scheduled and not cancelled nor fired, as the timer store would hold them. */
  const live = new Map<string, number>();

  const apply = (event: Parameters<LifecycleDriver['apply']>[0]) => {
    const before = d.state;
    const effects = d.apply(event);
    const after = d.state;
    checkState(after);
    view = project(view, effects);
    expect(view).toEqual({ status: statusOf(after.kind), userId: after.userId, departmentId: after.departmentId });
    if (after.protocol && protocols.at(-1) !== after.protocol) protocols.push(after.protocol);
    // A timer that fired is gone from the store (the runner deletes it as it delivers).
    if (event.kind === 'timer_fired' && before.timers[event.name] === event.version) live.delete(event.name);
    for (const e of effects) {
      if (e.kind === 'send') {
        // At most once per state entry and rule: the key is new, and names the entry the message belongs to.
        expect(keys.has(e.idempotencyKey), `sent twice: ${e.idempotencyKey}`).toBe(false);
        keys.add(e.idempotencyKey);
        expect(e.idempotencyKey).toBe(`${after.conversationId}:${after.entry}:${e.rule}`);
        if (e.rule.startsWith('out_of_hours:')) {
          expect(awaySpells.has(e.rule), `out-of-hours twice in one stretch: ${e.rule}`).toBe(false);
          awaySpells.add(e.rule);
        }
      }
      if (e.kind === 'schedule_timer') {
        expect(e.at).toBeGreaterThan(d.now);
        expect(live.has(e.name), `${e.name} scheduled over a live one`).toBe(false);
        live.set(e.name, e.version);
      }
      if (e.kind === 'cancel_timer') {
        expect(live.get(e.name)).toBe(e.version);
        live.delete(e.name);
      }
      if (e.kind === 'record_rating') {
        expect(rated.has(e.protocol)).toBe(false);
        rated.add(e.protocol);
      }
    }
    // Every timer the state holds is scheduled, and every other one was cancelled: the store holds no orphan.
    expect(Object.fromEntries(live)).toEqual(after.timers);
    if (event.kind === 'timer_fired') {
      // A stale timer (cancelled, replaced, or its state left) does nothing at all.
      if (before.timers[event.name] !== event.version) {
        expect(effects).toEqual([]);
        expect(after).toBe(before);
      }
      // Automations never change who the conversation belongs to.
      expect(after.userId).toBe(before.userId);
    }
    if (event.kind === 'customer_message' && before.kind === 'rating' && parseScore(event.text) === null) {
      // The rating question never holds a message that is not a score.
      expect(['bot', 'waiting', 'assigned']).toContain(after.kind);
    }
    if (event.kind === 'customer_message') expect(after.kind).not.toBe('rating');
  };

  /** The armed timers due by `until`, fired in order, then the clock at `until`. */
  const tick = (until: number) => {
    for (;;) {
      const due = Object.entries(d.state.timers)
        .map(([name, version]) => d.scheduled.find((t) => t.name === name && t.version === version)!)
        .filter((t) => t.at <= until)
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      d.now = Math.max(d.now, due.at);
      apply({ kind: 'timer_fired', name: due.name, version: due.version });
    }
    d.now = until;
  };

  for (const s of steps) {
    switch (s.kind) {
      case 'customer':
        apply({ kind: 'customer_message', text: s.text, protocol: d.nextProtocol() });
        break;
      case 'score': {
        const protocol = protocols.at(-1 - s.protocolBack);
        if (protocol) apply({ kind: 'customer_score', score: s.score, protocol });
        break;
      }
      case 'choice':
        apply({ kind: 'menu_choice', key: s.key, protocol: d.nextProtocol() });
        break;
      case 'reply':
        apply({ kind: 'agent_reply', userId: s.userId });
        break;
      case 'assign':
        apply({ kind: 'agent_assign', userId: s.userId, ...(s.departmentId === undefined ? {} : { departmentId: s.departmentId }) });
        break;
      case 'transfer':
        apply({ kind: 'agent_transfer_department', departmentId: s.departmentId });
        break;
      case 'release':
        apply({ kind: 'agent_release' });
        break;
      case 'resolve':
        apply({ kind: 'agent_resolve' });
        break;
      case 'reopen':
        apply({ kind: 'agent_reopen' });
        break;
      case 'tick':
        tick(d.now + s.ms);
        break;
      case 'redeliver': {
        // A timer delivered again, or late after it was cancelled (at-least-once delivery).
        const timer = d.scheduled[s.pick % Math.max(d.scheduled.length, 1)];
        if (timer && d.state.timers[timer.name] !== timer.version) apply({ kind: 'timer_fired', name: timer.name, version: timer.version });
        break;
      }
      case 'settings':
        d.settings = inZone(variants[s.variant]!);
        apply({ kind: 'settings_changed' });
        break;
    }
  }
}

describe('conversation lifecycle properties', () => {
  it('keeps one valid state, sends each automated message at most once per state entry and each out-of-hours stretch once, ignores stale timers and never lets the rating hold a message', () => {
    // The account's zone: São Paulo (no DST), or a tenant where the clocks change.
    const zone = fc.constantFrom('America/Sao_Paulo', 'America/New_York', 'Europe/Lisbon');
    const start = fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2026-12-31T00:00:00Z') });
    assertProperty(
      fc.property(start, zone, fc.array(step, { minLength: 1, maxLength: 80 }), (at, timeZone, steps) => {
        run(at, timeZone, steps);
      }),
      { quick: 300, full: 10_000 },
    );
  }, 120_000);
});
