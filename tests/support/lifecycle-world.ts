/**
 * The conversation lifecycle's test world: an account in São Paulo with every automation on, a
 * connection with a two-level menu, a fake clock, and a driver that feeds events to `transition`
 * and keeps what it asked for (the messages sent, the timers armed and cancelled), as the real
 * runner would. Used by the lifecycle's example and property tests.
 */
import { type AutomationSettings, automationSettingsSchema, type ConnectionMenu, connectionMenuSchema } from '#contracts/automations.ts';
import { businessHoursSchema } from '#contracts/business-hours.ts';
import { type LifecycleEffect, type LifecycleEvent, type LifecycleSettings, type LifecycleState, lifecycleFromContact } from '#domain/automations/lifecycle.ts';
import { transition } from '#domain/automations/transition.ts';

const weekdays = [1, 2, 3, 4, 5];

/** Weekdays 08:00-18:00 in São Paulo (Financeiro 09:00-17:00); Saturdays and Sundays closed; 2026-12-25 a holiday. */
export const hours = businessHoursSchema.parse({
  shifts: weekdays.map((weekday) => ({ weekday, start: '08:00', end: '18:00' })),
  holidays: [{ date: '2026-12-25', name: 'Natal' }],
  departments: [{ departmentId: 'financeiro', shifts: weekdays.map((weekday) => ({ weekday, start: '09:00', end: '17:00' })) }],
});

export const automations: AutomationSettings = automationSettingsSchema.parse({
  greeting: { enabled: true, text: 'Olá, {{primeiro_nome}}! Seu protocolo é {{protocolo}}.' },
  outOfHours: { enabled: true, text: 'Estamos fora do horário de atendimento. Responderemos assim que abrirmos.' },
  noAnswer: { enabled: true, minutes: 10, text: 'Ainda estamos por aqui: logo alguém do {{departamento}} responde.' },
  closing: { enabled: true, text: 'Atendimento {{protocolo}} encerrado. Obrigado!' },
  waitingTooLong: { enabled: true, minutes: 60, departmentId: 'geral' },
  inactivity: { enabled: true, closeAfterHours: 24, warnBeforeMinutes: 60, warningText: 'Vamos encerrar em 1 hora se não houver resposta.' },
  rating: { enabled: true, question: 'De 1 a 5, como foi o atendimento?', thanks: 'Obrigado pela avaliação!' },
  roundRobin: { enabled: false, maxOpenPerAgent: 5 },
  reopenToLastAgent: false,
});

export const menu: ConnectionMenu = connectionMenuSchema.parse({
  enabled: true,
  menus: [
    {
      id: 'inicio',
      text: 'Escolha uma opção:',
      options: [
        { key: '1', label: 'Vendas', action: { kind: 'department', departmentId: 'vendas' } },
        { key: '2', label: 'Financeiro', action: { kind: 'submenu', menuId: 'financeiro' } },
        { key: '3', label: 'Endereço', action: { kind: 'answer', text: 'Rua das Flores, 100.' } },
        { key: '4', label: 'Falar com a Ana', action: { kind: 'user', userId: 'u-ana' } },
      ],
    },
    {
      id: 'financeiro',
      text: 'Financeiro:',
      options: [
        { key: '1', label: 'Boletos', action: { kind: 'department', departmentId: 'financeiro' } },
        { key: '2', label: 'Pix', action: { kind: 'answer', text: 'Nossa chave Pix é o CNPJ.' } },
      ],
    },
  ],
  invalidText: 'Opção inválida.',
  maxInvalid: 3,
  timeoutMinutes: 5,
  timeoutDepartmentId: 'geral',
});

export const settings: LifecycleSettings = { automations, hours, menu, defaultDepartmentId: 'geral' };

/** With some automations changed. */
export const withAutomations = (changes: Partial<AutomationSettings>, base: LifecycleSettings = settings): LifecycleSettings => ({
  ...base,
  automations: { ...base.automations, ...changes },
});

export const newConversation = (id = 'c1'): LifecycleState => lifecycleFromContact({ id, status: 'resolved' });

type Scheduled = Extract<LifecycleEffect, { kind: 'schedule_timer' }>;

/** A conversation driven through the lifecycle on a fake clock. */
export class LifecycleDriver {
  state: LifecycleState;
  now: number;
  settings: LifecycleSettings;
  /** Every effect asked for, in order. */
  readonly effects: LifecycleEffect[] = [];
  /** Every timer ever scheduled (cancelled ones too: they may still fire, stale). */
  readonly scheduled: Scheduled[] = [];
  private protocols = 0;

  constructor(options: { at: string; state?: LifecycleState; settings?: LifecycleSettings }) {
    this.now = Date.parse(options.at);
    this.state = options.state ?? newConversation();
    this.settings = options.settings ?? settings;
  }

  /** Feeds one event; answers this transition's effects. */
  apply(event: LifecycleEvent): LifecycleEffect[] {
    const { state, effects } = transition(this.state, event, this.settings, this.now);
    this.state = state;
    this.effects.push(...effects);
    for (const effect of effects) if (effect.kind === 'schedule_timer') this.scheduled.push(effect);
    return effects;
  }

  nextProtocol(): string {
    this.protocols += 1;
    return `P${this.protocols}`;
  }

  customer(text: string): LifecycleEffect[] {
    return this.apply({ kind: 'customer_message', text, protocol: this.nextProtocol() });
  }

  /** Moves the clock (never back). */
  advance(ms: number): void {
    this.now += ms;
  }

  /** The armed timer of that name, if any. */
  armed(name: Scheduled['name']): Scheduled | undefined {
    const version = this.state.timers[name];
    return version === undefined ? undefined : this.scheduled.find((t) => t.name === name && t.version === version);
  }

  /** Moves the clock to the armed timer's time and fires it. */
  fire(name: Scheduled['name']): LifecycleEffect[] {
    const timer = this.armed(name);
    if (!timer) throw new Error(`No ${name} timer armed in ${this.state.kind}`);
    this.now = Math.max(this.now, timer.at);
    return this.apply({ kind: 'timer_fired', name, version: timer.version });
  }

  /** The templates of the messages sent by these effects (all of them when none given). */
  sent(effects: LifecycleEffect[] = this.effects): string[] {
    return effects.flatMap((e) => (e.kind === 'send' ? [e.rule] : []));
  }
}
