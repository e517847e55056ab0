import { describe, expect, it } from 'vitest';
import { businessHoursSchema } from '#contracts/business-hours.ts';
import { LifecycleDriver, menu, newConversation, settings, withAutomations } from '../../../tests/support/lifecycle-world.ts';
import { type LifecycleEffect, lifecycleFromContact, statusOf } from './lifecycle.ts';
import { parseScore } from './scores.ts';
import { transition } from './transition.ts';

const minute = 60_000;
const hour = 60 * minute;
/** Friday 2026-11-27, 10:00 in São Paulo (open). */
const fridayMorning = '2026-11-27T13:00:00Z';
/** Friday 19:00 in São Paulo (closed until Monday 08:00). */
const fridayEvening = '2026-11-27T22:00:00Z';

const iso = (ms: number) => new Date(ms).toISOString();
const kinds = (effects: LifecycleEffect[]) =>
  effects.map((e) => (e.kind === 'send' ? `send ${e.rule}` : e.kind === 'set_status' ? `status ${e.status}` : e.kind));

/** A driver whose conversation has reached the waiting state in Vendas through the menu. */
function waitingInVendas(at = fridayMorning) {
  const d = new LifecycleDriver({ at });
  d.customer('Oi');
  d.customer('1');
  return d;
}

describe('a new conversation in business hours', () => {
  it('greets, shows the menu and arms its timeout: bot, pending, nobody’s', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    const effects = d.customer('Oi');
    expect(d.state).toMatchObject({ kind: 'bot', entry: 1, protocol: 'P1', userId: null, departmentId: null, menu: { path: ['inicio'], invalid: 0 } });
    expect(kinds(effects)).toEqual(['status pending', 'schedule_timer', 'send greeting', 'send menu:inicio']);
    const greeting = effects.find((e) => e.kind === 'send' && e.rule === 'greeting');
    expect(greeting).toMatchObject({ idempotencyKey: 'c1:1:greeting', template: settings.automations.greeting.text });
    expect(effects.find((e) => e.kind === 'send' && e.rule === 'menu:inicio')).toMatchObject({
      template: 'Escolha uma opção:\n\n1 - Vendas\n2 - Financeiro\n3 - Endereço\n4 - Falar com a Ana',
    });
    expect(d.armed('menu_timeout')?.at).toBe(Date.parse(fridayMorning) + 5 * minute);
  });

  it('without a menu, greets and waits in the connection’s default department', () => {
    const d = new LifecycleDriver({ at: fridayMorning, settings: { ...settings, menu: null } });
    const effects = d.customer('Oi');
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'geral', userId: null });
    expect(d.sent(effects)).toEqual(['greeting']);
    expect(d.armed('no_answer')).toBeDefined();
    expect(d.armed('waiting_too_long')).toBeUndefined(); // it already waits where waiting too long leads
  });

  it('goes back to whoever had it when the account says so, without greeting or menu', () => {
    const d = new LifecycleDriver({ at: fridayMorning, settings: withAutomations({ reopenToLastAgent: true }) });
    d.state = { ...newConversation(), userId: 'u-bia', departmentId: 'vendas' };
    const effects = d.customer('Oi de novo');
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-bia', departmentId: 'vendas', protocol: 'P1' });
    expect(kinds(effects)).toEqual(['status open']);
  });
});

describe('the menu', () => {
  it('sends to a department: waiting there, the menu timeout cancelled, the waiting timers armed', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    const timeout = d.armed('menu_timeout')!;
    const effects = d.customer(' 1 ');
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'vendas', userId: null, entry: 2 });
    expect(effects).toContainEqual({ kind: 'cancel_timer', id: 'c1:menu_timeout', name: 'menu_timeout', version: timeout.version });
    expect(effects).toContainEqual({ kind: 'set_department', departmentId: 'vendas' });
    expect(d.sent(effects)).toEqual([]);
    expect(d.armed('no_answer')?.at).toBe(Date.parse(fridayMorning) + 10 * minute);
    expect(d.armed('waiting_too_long')?.at).toBe(Date.parse(fridayMorning) + 60 * minute);
  });

  it('opens a submenu, and 0 goes back a level (at the first menu, shows it again)', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    expect(d.sent(d.customer('2'))).toEqual(['menu:financeiro']);
    expect(d.state.menu?.path).toEqual(['inicio', 'financeiro']);
    expect(d.effects.at(-1)).toMatchObject({ template: 'Financeiro:\n\n1 - Boletos\n2 - Pix\n0 - Voltar' });
    expect(d.sent(d.customer('0'))).toEqual(['menu:inicio']);
    expect(d.state.menu?.path).toEqual(['inicio']);
    const again = d.customer('0');
    expect(d.sent(again)).toEqual(['menu:inicio']);
    expect(again.find((e) => e.kind === 'send')).toMatchObject({ idempotencyKey: `c1:${d.state.entry}:menu:inicio` });
  });

  it('answers an option with its text and stays in the menu, its timeout armed again', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    const before = d.armed('menu_timeout')!;
    d.advance(3 * minute);
    const effects = d.customer('3');
    expect(d.sent(effects)).toEqual(['answer:inicio:3']);
    expect(d.state.kind).toBe('bot');
    expect(effects).toContainEqual({ kind: 'cancel_timer', id: 'c1:menu_timeout', name: 'menu_timeout', version: before.version });
    expect(d.armed('menu_timeout')?.at).toBe(d.now + 5 * minute);
  });

  it('answers an invalid option with the invalid text and the menu, and after the third sends to the default department', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    expect(d.sent(d.customer('quero boleto'))).toEqual(['invalid_option', 'menu:inicio']);
    expect(d.sent(d.customer('9'))).toEqual(['invalid_option', 'menu:inicio']);
    expect(d.state.menu?.invalid).toBe(2);
    const third = d.customer('x');
    expect(d.sent(third)).toEqual([]);
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'geral' });
  });

  it('a person option assigns the conversation to that person: open', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    const effects = d.apply({ kind: 'menu_choice', key: '4', protocol: 'ignored' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-ana' });
    expect(kinds(effects)).toEqual(['cancel_timer', 'status open', 'assign']);
  });

  it('times out to the default department; the timeout firing again later does nothing', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    const timeout = d.armed('menu_timeout')!;
    d.fire('menu_timeout');
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'geral' });
    const before = d.state;
    expect(transition(before, { kind: 'timer_fired', name: 'menu_timeout', version: timeout.version }, settings, d.now)).toEqual({
      state: before,
      effects: [],
    });
  });

  it('a timeout armed before a choice is stale after it', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    const first = d.armed('menu_timeout')!;
    d.customer('2'); // submenu: a new timeout
    const state = d.state;
    expect(d.apply({ kind: 'timer_fired', name: 'menu_timeout', version: first.version })).toEqual([]);
    expect(d.state).toBe(state);
  });
});

describe('out of hours', () => {
  it('a new conversation gets the out-of-hours reply alone (no greeting, no menu) and waits in the default department', () => {
    const d = new LifecycleDriver({ at: fridayEvening });
    const effects = d.customer('Oi');
    expect(d.sent(effects)).toEqual(['out_of_hours:account@2026-11-30T11:00:00.000Z']);
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'geral' });
    // 'No one answered' counts from Monday's opening (08:00 in São Paulo), not through the weekend.
    expect(iso(d.armed('no_answer')!.at)).toBe('2026-11-30T11:10:00.000Z');
    expect(d.sent(d.fire('no_answer'))).toEqual(['no_answer']);
  });

  it('answers once an out-of-hours stretch, however many messages, and again in the next stretch', () => {
    const d = new LifecycleDriver({ at: fridayEvening });
    d.customer('Oi');
    d.advance(hour);
    expect(d.sent(d.customer('Alô?'))).toEqual([]);
    d.advance(24 * hour); // Saturday 20:00: still the same stretch until Monday
    expect(d.sent(d.customer('Tem alguém?'))).toEqual([]);
    d.now = Date.parse('2026-11-30T22:00:00Z'); // Monday 19:00: the next stretch
    expect(d.sent(d.customer('E agora?'))).toEqual(['out_of_hours:account@2026-12-01T11:00:00.000Z']);
  });

  it('a department closed while the account is open answers out of hours when chosen', () => {
    const d = new LifecycleDriver({ at: '2026-11-27T20:30:00Z' }); // Friday 17:30: Financeiro closed at 17:00
    d.customer('Oi');
    d.customer('2');
    const effects = d.customer('1');
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'financeiro' });
    expect(d.sent(effects)).toEqual(['out_of_hours:department:financeiro@2026-11-30T12:00:00.000Z']);
  });

  it('is not sent on a holiday twice, and a holiday is closed all day', () => {
    const d = new LifecycleDriver({ at: '2026-12-25T13:00:00Z' }); // Christmas, a Friday, 10:00
    expect(d.sent(d.customer('Oi'))).toEqual(['out_of_hours:account@2026-12-28T11:00:00.000Z']);
    expect(d.sent(d.customer('Oi?'))).toEqual([]);
  });

  it('a transfer made out of hours sends nothing (the customer did not move)', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    d.customer('1');
    d.now = Date.parse(fridayEvening);
    expect(d.sent(d.apply({ kind: 'agent_transfer_department', departmentId: 'financeiro' }))).toEqual([]);
  });

  it('is not sent again in the same stretch after the conversation changed state under the same hours', () => {
    const d = new LifecycleDriver({ at: fridayEvening });
    d.customer('Oi');
    d.apply({ kind: 'agent_transfer_department', departmentId: 'vendas' }); // a new entry, the account's hours still
    d.apply({ kind: 'agent_assign', userId: 'u-bia' });
    expect(d.sent(d.customer('Alguém?'))).toEqual([]);
    d.apply({ kind: 'agent_transfer_department', departmentId: 'financeiro' }); // other hours: another stretch
    expect(d.sent(d.customer('E o financeiro?'))).toEqual(['out_of_hours:department:financeiro@2026-11-30T12:00:00.000Z']);
    d.apply({ kind: 'agent_transfer_department', departmentId: 'vendas' }); // back under the account's hours, same night
    expect(d.sent(d.customer('Voltei para vendas'))).toEqual([]);
  });
});

describe('waiting', () => {
  it('sends the no-answer notice once when nobody replied in time', () => {
    const d = waitingInVendas();
    expect(d.sent(d.fire('no_answer'))).toEqual(['no_answer']);
    expect(d.armed('no_answer')).toBeUndefined();
    expect(d.state.kind).toBe('waiting');
  });

  it('a reply of the team cancels the notice; it never counts the automation’s own messages', () => {
    const d = waitingInVendas();
    const noAnswer = d.armed('no_answer')!;
    const effects = d.apply({ kind: 'agent_reply', userId: 'u-bia' });
    expect(effects).toContainEqual({ kind: 'cancel_timer', id: 'c1:no_answer', name: 'no_answer', version: noAnswer.version });
    expect(d.state).toMatchObject({ kind: 'waiting', userId: null });
    expect(d.apply({ kind: 'timer_fired', name: 'no_answer', version: noAnswer.version })).toEqual([]);
  });

  it('the notice firing after closing time sends nothing', () => {
    const d = waitingInVendas('2026-11-27T20:55:00Z'); // 17:55, the notice due 18:05
    expect(d.sent(d.fire('no_answer'))).toEqual([]);
  });

  it('moves a conversation waiting too long to the set department, once', () => {
    const d = waitingInVendas();
    d.fire('no_answer');
    const effects = d.fire('waiting_too_long');
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'geral', userId: null });
    expect(effects).toContainEqual({ kind: 'set_department', departmentId: 'geral' });
    expect(d.armed('waiting_too_long')).toBeUndefined();
  });

  it('asks round-robin for a member on entering a queue when it is on', () => {
    const d = new LifecycleDriver({ at: fridayMorning, settings: withAutomations({ roundRobin: { enabled: true, maxOpenPerAgent: 3 } }) });
    d.customer('Oi');
    const effects = d.customer('1');
    expect(effects).toContainEqual({ kind: 'request_round_robin', departmentId: 'vendas', maxOpenPerAgent: 3 });
    d.apply({ kind: 'agent_assign', userId: 'u-bia' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-bia', departmentId: 'vendas' });
  });
});

describe('the team’s moves', () => {
  it('take, release, transfer to a department and to a person', () => {
    const d = waitingInVendas();
    expect(kinds(d.apply({ kind: 'agent_assign', userId: 'u-bia' }))).toEqual(['cancel_timer', 'cancel_timer', 'status open', 'assign']);
    expect(d.apply({ kind: 'agent_assign', userId: 'u-bia' })).toEqual([]);
    d.apply({ kind: 'agent_release' });
    expect(d.state).toMatchObject({ kind: 'waiting', userId: null, departmentId: 'vendas' });
    d.apply({ kind: 'agent_transfer_department', departmentId: 'financeiro' });
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'financeiro' });
    d.apply({ kind: 'agent_assign', userId: 'u-caio', departmentId: 'vendas' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-caio', departmentId: 'vendas' });
  });

  it('a reply of the team in the menu stops the bot', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    d.apply({ kind: 'agent_reply', userId: 'u-bia' });
    expect(d.state).toMatchObject({ kind: 'waiting', userId: null, menu: null });
    expect(d.armed('menu_timeout')).toBeUndefined();
    expect(d.armed('no_answer')).toBeUndefined();
    expect(d.sent(d.customer('1'))).toEqual([]); // no longer a menu choice
  });

  it('a reply to a resolved conversation makes it the replier’s; taking one leaves it resolved', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.apply({ kind: 'agent_assign', userId: 'u-bia' });
    expect(d.state).toMatchObject({ kind: 'resolved', userId: 'u-bia' });
    d.apply({ kind: 'agent_reply', userId: 'u-caio' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-caio' });
  });

  it('reopening goes to whoever had it, or to the queue', () => {
    const d = new LifecycleDriver({ at: fridayMorning, settings: withAutomations({ rating: { ...settings.automations.rating, enabled: false } }) });
    d.state = { ...newConversation(), userId: 'u-bia' };
    d.apply({ kind: 'agent_reopen' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-bia' });
    d.apply({ kind: 'agent_release' });
    d.apply({ kind: 'agent_resolve' });
    expect(d.state.kind).toBe('resolved');
    d.apply({ kind: 'agent_reopen' });
    expect(d.state).toMatchObject({ kind: 'waiting', userId: null });
  });
});

describe('inactivity', () => {
  function answered() {
    const d = waitingInVendas();
    d.apply({ kind: 'agent_assign', userId: 'u-bia' });
    d.apply({ kind: 'agent_reply', userId: 'u-bia' });
    return d;
  }

  it('after the team’s reply, warns an hour before and resolves after 24 hours of the customer’s silence', () => {
    const d = answered();
    const start = d.now;
    expect(d.armed('inactivity_warning')?.at).toBe(start + 23 * hour);
    expect(d.armed('inactivity_close')?.at).toBe(start + 24 * hour);
    const warning = d.fire('inactivity_warning');
    expect(d.sent(warning)).toEqual([`inactivity_warning:${d.scheduled.find((t) => t.name === 'inactivity_warning')!.version}`]);
    const close = d.fire('inactivity_close');
    expect(d.state).toMatchObject({ kind: 'rating', userId: 'u-bia', ratingRequest: { protocol: 'P1', answered: false } });
    expect(d.sent(close)).toEqual(['closing', 'rating_question']);
    expect(statusOf(d.state.kind)).toBe('resolved');
  });

  it('the customer’s message cancels both timers; the next reply of the team arms them again', () => {
    const d = answered();
    const warning = d.armed('inactivity_warning')!;
    d.advance(2 * hour);
    const effects = d.customer('Ainda estou vendo');
    expect(kinds(effects)).toEqual(['cancel_timer', 'cancel_timer']);
    expect(d.apply({ kind: 'timer_fired', name: 'inactivity_warning', version: warning.version })).toEqual([]);
    d.apply({ kind: 'agent_reply', userId: 'u-bia' });
    expect(d.armed('inactivity_close')?.at).toBe(d.now + 24 * hour);
  });
});

describe('rating', () => {
  function rated() {
    const d = waitingInVendas();
    d.apply({ kind: 'agent_assign', userId: 'u-bia' });
    d.apply({ kind: 'agent_resolve' });
    return d;
  }

  it('records a score, thanks and leaves the conversation resolved', () => {
    const d = rated();
    const effects = d.customer('5');
    expect(effects).toContainEqual({ kind: 'record_rating', protocol: 'P1', score: 5, late: false });
    expect(d.sent(effects)).toEqual(['rating_thanks']);
    expect(d.state.kind).toBe('resolved');
  });

  it('a message that is not a score starts a conversation as usual, and a late score for it is still recorded once', () => {
    const d = rated();
    const effects = d.customer('Esqueci de perguntar uma coisa');
    expect(d.state).toMatchObject({ kind: 'bot', protocol: 'P3' });
    expect(d.sent(effects)).toEqual(['greeting', 'menu:inicio']);
    const late = d.apply({ kind: 'customer_score', score: 4, protocol: 'P1' });
    expect(late).toEqual([{ kind: 'record_rating', protocol: 'P1', score: 4, late: true }]);
    expect(d.state.kind).toBe('bot');
    expect(d.apply({ kind: 'customer_score', score: 1, protocol: 'P1' })).toEqual([]);
  });

  it('asks once a protocol: reopened by the team and resolved again, it only closes', () => {
    const d = rated();
    d.customer('5');
    d.apply({ kind: 'agent_reopen' });
    expect(d.state).toMatchObject({ kind: 'assigned', userId: 'u-bia', protocol: 'P1' });
    expect(d.sent(d.apply({ kind: 'agent_resolve' }))).toEqual(['closing']);
    expect(d.state.kind).toBe('resolved');
  });

  it('a score typed to a resolved conversation with no question pending starts a conversation', () => {
    const d = rated();
    d.customer('5');
    d.customer('4');
    expect(d.state.kind).toBe('bot');
  });

  it('without rating, resolving sends the closing message and resolves', () => {
    const d = new LifecycleDriver({ at: fridayMorning, settings: withAutomations({ rating: { ...settings.automations.rating, enabled: false } }) });
    d.customer('Oi');
    d.customer('1');
    expect(d.sent(d.apply({ kind: 'agent_resolve' }))).toEqual(['closing']);
    expect(d.state.kind).toBe('resolved');
  });

  it('reads a score only from a message that is just a digit from 1 to 5', () => {
    expect(['5', ' 3 ', '4.', '2!', '5️⃣'].map(parseScore)).toEqual([5, 3, 4, 2, 5]);
    expect(['0', '6', '10', '5 estrelas', 'nota 5', 'oi', ''].map(parseScore)).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('settings changes', () => {
  it('a menu switched off sends a customer in it to the default department', () => {
    const d = new LifecycleDriver({ at: fridayMorning });
    d.customer('Oi');
    d.settings = { ...settings, menu: { ...menu, enabled: false }, defaultDepartmentId: 'vendas' };
    d.apply({ kind: 'settings_changed' });
    expect(d.state).toMatchObject({ kind: 'waiting', departmentId: 'vendas' });
    expect(d.armed('menu_timeout')).toBeUndefined();
  });

  it('inactivity switched off cancels its armed timers', () => {
    const d = waitingInVendas();
    d.apply({ kind: 'agent_reply', userId: 'u-bia' });
    d.settings = withAutomations({ inactivity: { ...settings.automations.inactivity, enabled: false } });
    expect(kinds(d.apply({ kind: 'settings_changed' }))).toEqual(['cancel_timer', 'cancel_timer']);
    expect(d.state.timers).toEqual({});
  });
});

describe('the inbox’s view of the lifecycle', () => {
  it('maps bot and waiting to pending, assigned to open, rating and resolved to resolved', () => {
    expect((['bot', 'waiting', 'assigned', 'rating', 'resolved'] as const).map(statusOf)).toEqual(['pending', 'pending', 'open', 'resolved', 'resolved']);
  });

  it('rebuilds a conversation that predates the lifecycle from its contact', () => {
    expect(lifecycleFromContact({ id: 'a', status: 'resolved', userId: 'u' }).kind).toBe('resolved');
    expect(lifecycleFromContact({ id: 'b', status: 'pending', userId: 'u' }).kind).toBe('assigned');
    expect(lifecycleFromContact({ id: 'c', status: 'open', userId: null, departmentId: 'd' })).toMatchObject({ kind: 'waiting', departmentId: 'd' });
  });
});

describe('the account’s clock', () => {
  it('opens at the shift’s first minute and closes at its end, in the account’s zone', () => {
    const early = new LifecycleDriver({ at: '2026-11-27T10:59:00Z' }); // 07:59 in São Paulo
    expect(rules(early.customer('Oi'))).toEqual(['out_of_hours:account@2026-11-27T11:00:00.000Z']);
    const first = new LifecycleDriver({ at: '2026-11-27T11:00:00Z' }); // 08:00
    expect(rules(first.customer('Oi'))).toEqual(['greeting', 'menu:inicio']);
    const last = new LifecycleDriver({ at: '2026-11-27T20:59:00Z' }); // 17:59
    expect(rules(last.customer('Oi'))).toEqual(['greeting', 'menu:inicio']);
    const closed = new LifecycleDriver({ at: '2026-11-27T21:00:00Z' }); // 18:00
    expect(rules(closed.customer('Oi'))).toEqual(['out_of_hours:account@2026-11-30T11:00:00.000Z']);
  });

  it('a tenant in Manaus (UTC-4) is closed when São Paulo has opened', () => {
    const manaus = { ...settings, hours: { ...settings.hours, timeZone: 'America/Manaus' } };
    const d = new LifecycleDriver({ at: '2026-11-27T11:30:00Z', settings: manaus }); // 08:30 in São Paulo, 07:30 in Manaus
    expect(rules(d.customer('Oi'))).toEqual(['out_of_hours:account@2026-11-27T12:00:00.000Z']);
  });

  it('a night shift across midnight (two shifts) keeps the conversation in hours past 00:00', () => {
    const night = businessHoursSchema.parse({
      shifts: [
        { weekday: 5, start: '22:00', end: '24:00' },
        { weekday: 6, start: '00:00', end: '02:00' },
      ],
    });
    const d = new LifecycleDriver({ at: '2026-11-28T02:59:00Z', settings: { ...settings, hours: night, menu: null } }); // Friday 23:59
    expect(rules(d.customer('Oi'))).toEqual(['greeting']);
    d.now = Date.parse('2026-11-28T03:00:00Z'); // Saturday 00:00
    expect(rules(d.customer('Ainda aí?'))).toEqual([]);
    d.now = Date.parse('2026-11-28T05:00:00Z'); // Saturday 02:00: closed until next Friday 22:00
    expect(rules(d.customer('Alô?'))).toEqual(['out_of_hours:account@2026-12-05T01:00:00.000Z']);
  });
});

/** The rules of the messages these effects send. */
function rules(effects: LifecycleEffect[]): string[] {
  return effects.flatMap((e) => (e.kind === 'send' ? [e.rule] : []));
}
