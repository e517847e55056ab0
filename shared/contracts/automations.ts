/**
 * The account's automations (docs/conversation-lifecycle.md): automated messages (greeting,
 * out-of-hours reply, 'no one answered' notice, closing message, inactivity warning, rating),
 * round-robin assignment, inactivity and waiting limits, and each connection's menu ('URA').
 * Texts take the variables below, filled as quick replies fill theirs (quick-replies.ts).
 */
import { z } from 'zod';
import { idField, requiredString, requiredText } from './fields.ts';
import { defaultOptOutSettings, optOutSettingsSchema } from './opt-out.ts';
import { fillVariables, variableValues } from './quick-replies.ts';

/** The variables an automated message may use, with what each is filled with. */
export const automationVariables = {
  primeiro_nome: 'Primeiro nome do contato',
  departamento: 'Departamento da conversa',
  protocolo: 'Protocolo do atendimento',
  atendente: 'Nome de quem atende',
} as const;
type AutomationVariable = keyof typeof automationVariables;

export interface AutomationTextContext {
  contact: { name: string };
  department: { name: string } | null;
  protocol: string | null;
  agent: { name: string } | null;
}

/** Fills an automated message's variables; a missing value (no department, nobody assigned) is empty. */
export function fillAutomationText(text: string, ctx: AutomationTextContext): string {
  const quick = variableValues({ contact: { name: ctx.contact.name, data: { phoneNumber: null, email: null } }, agent: { name: ctx.agent?.name ?? '' } });
  const values: Record<AutomationVariable, string> = {
    primeiro_nome: quick.primeiro_nome,
    departamento: ctx.department?.name.trim() ?? '',
    protocolo: ctx.protocol ?? '',
    atendente: quick.atendente,
  };
  return fillVariables(text, values);
}

export const unknownVariableText = (name: string) =>
  `Variável desconhecida: {{${name}}}. Use ${Object.keys(automationVariables)
    .map((v) => `{{${v}}}`)
    .join(', ')}`;

/** An automated message's text: required, at most 1,024 characters, only known variables. */
const messageText = requiredString(1024).superRefine((text, ctx) => {
  for (const [, name] of text.matchAll(/\{\{\s*([a-zA-Z_]+)\s*\}\}/g)) {
    if (!Object.hasOwn(automationVariables, name!.toLowerCase())) ctx.addIssue({ code: 'custom', message: unknownVariableText(name!) });
  }
});

const minutesField = (max: number) =>
  z
    .number({ error: requiredText })
    .int({ error: 'Use um número inteiro de minutos' })
    .min(1, { error: 'Use pelo menos 1 minuto' })
    .max(max, { error: `Use no máximo ${max} minutos` });

/**
 * A rule with a switch: switched on, its fields are checked (pt-BR messages); switched off, they are
 * kept as typed so the screen keeps them for the next time, without being required: a blank text, a
 * blank department, a number left blank (it falls back to `fallback`'s). ADR-0215.
 */
const switchable = <On extends z.ZodRawShape, Off extends { [K in keyof On]: z.ZodType<z.output<On[K]>> }>(on: On, off: Off) =>
  z.discriminatedUnion('enabled', [z.object({ enabled: z.literal(true), ...on }), z.object({ enabled: z.literal(false), ...off })], {
    error: requiredText,
  });

/** A switched-off rule's text and department: any text up to the bound, blank too. */
const keptText = z.string({ error: requiredText }).max(1024, { error: 'Use no máximo 1024 caracteres' });
const keptId = z.string({ error: requiredText }).max(64);
const keptNumber = (fallback: number) => z.number().int().min(0).catch(fallback);

/** The suggested answer to a rejected WhatsApp call. */
const rejectCallsText = 'Não atendemos ligações por aqui. Por favor, envie sua mensagem por escrito que responderemos em breve.';

export const automationSettingsSchema = z
  .object({
    /** Sent when a customer starts a conversation in business hours. */
    greeting: switchable({ text: messageText }, { text: keptText }),
    /** Sent once an out-of-hours stretch, to a customer waiting while the conversation's department is closed. */
    outOfHours: switchable({ text: messageText }, { text: keptText }),
    /** Sent once when a conversation waits in its queue this long in business hours with no reply from the team. */
    noAnswer: switchable({ minutes: minutesField(1440), text: messageText }, { minutes: keptNumber(15), text: keptText }),
    /** Sent when the conversation is resolved (by someone or by inactivity). */
    closing: switchable({ text: messageText }, { text: keptText }),
    /**
     * A WhatsApp call (QR connection) is rejected at once and answered with this text; the conversation
     * shows that a call came either way (ADR-0220). Absent from documents saved
     * before it: switched off.
     */
    rejectCalls: switchable({ text: messageText }, { text: keptText }).default({ enabled: false, text: rejectCallsText }),
    /** Moves a conversation that waits unassigned this long to another department. */
    waitingTooLong: switchable({ minutes: minutesField(10080), departmentId: idField }, { minutes: keptNumber(60), departmentId: keptId }),
    /** Resolves a conversation the customer has not answered for `closeAfterHours` after the team's last reply, warning before. */
    inactivity: switchable(
      {
        closeAfterHours: z
          .number({ error: requiredText })
          .int({ error: 'Use um número inteiro de horas' })
          .min(1, { error: 'Use pelo menos 1 hora' })
          .max(720, { error: 'Use no máximo 720 horas' }),
        warnBeforeMinutes: minutesField(1440),
        warningText: messageText,
      },
      { closeAfterHours: keptNumber(24), warnBeforeMinutes: keptNumber(60), warningText: keptText },
    ),
    /** Asks for a score from 1 to 5 on resolve; the answer never holds the customer's next message. */
    rating: switchable({ question: messageText, thanks: messageText }, { question: keptText, thanks: keptText }),
    /** Assigns a conversation entering a department's queue to its online members in turn, each up to a cap. */
    roundRobin: switchable(
      {
        maxOpenPerAgent: z
          .number({ error: requiredText })
          .int({ error: 'Use um número inteiro' })
          .min(1, { error: 'Use pelo menos 1' })
          .max(100, { error: 'Use no máximo 100' }),
      },
      { maxOpenPerAgent: keptNumber(5) },
    ),
    /** A customer writing to a resolved conversation goes back to whoever had it (as the inbox did before automations). */
    reopenToLastAgent: z.boolean({ error: requiredText }).default(true),
    /** A person's messages reach the customer under their name ('*Ana Souza:*'), unless they opted out (ADR-0219). */
    signMessages: z.boolean({ error: requiredText }).default(false),
    /** Words that opt a customer out of campaigns and back in, and the confirmations (ADR-0225); documents saved before it read the defaults. */
    optOut: optOutSettingsSchema(messageText, keptText).default(defaultOptOutSettings),
  })
  .refine((s) => !s.inactivity.enabled || s.inactivity.warnBeforeMinutes < s.inactivity.closeAfterHours * 60, {
    error: 'O aviso deve vir antes do encerramento',
    path: ['inactivity', 'warnBeforeMinutes'],
  });
export type AutomationSettings = z.infer<typeof automationSettingsSchema>;

/**
 * An account that never saved its automations: everything switched off (the inbox behaves as it did
 * before automations: a resolved conversation reopens to whoever had it), with texts ready to switch on.
 */
export const defaultAutomationSettings: AutomationSettings = {
  greeting: { enabled: false, text: 'Olá, {{primeiro_nome}}! Recebemos sua mensagem e já vamos te atender.' },
  outOfHours: {
    enabled: false,
    text: 'Olá, {{primeiro_nome}}! No momento estamos fora do horário de atendimento. Vamos responder assim que voltarmos.',
  },
  noAnswer: {
    enabled: false,
    minutes: 15,
    text: 'Olá, {{primeiro_nome}}! Nossa equipe está com muitas conversas agora, mas logo alguém do {{departamento}} vai te responder. Obrigado pela paciência.',
  },
  closing: {
    enabled: false,
    text: 'Seu atendimento foi encerrado. O protocolo é {{protocolo}}. Se precisar de algo mais, é só mandar uma nova mensagem.',
  },
  rejectCalls: { enabled: false, text: rejectCallsText },
  waitingTooLong: { enabled: false, minutes: 60, departmentId: '' },
  inactivity: {
    enabled: false,
    closeAfterHours: 24,
    warnBeforeMinutes: 60,
    warningText: 'Olá, {{primeiro_nome}}! Como não tivemos sua resposta, este atendimento será encerrado em breve. Se ainda precisar de ajuda, é só responder.',
  },
  rating: { enabled: false, question: 'De 1 a 5, como você avalia nosso atendimento?', thanks: 'Obrigado pela avaliação, {{primeiro_nome}}!' },
  roundRobin: { enabled: false, maxOpenPerAgent: 5 },
  reopenToLastAgent: true,
  signMessages: false,
  optOut: defaultOptOutSettings,
};

export const menuTexts = {
  key: 'Use um número de 1 a 9',
  keyRepeated: 'Este número já é usado por outra opção deste menu',
  submenuMissing: 'Submenu não encontrado',
  menuRepeated: 'Já existe um menu com este identificador',
  back: '0 - Voltar',
} as const;

const optionAction = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('department'), departmentId: idField }),
    z.object({ kind: z.literal('submenu'), menuId: idField }),
    z.object({ kind: z.literal('answer'), text: messageText }),
    z.object({ kind: z.literal('user'), userId: idField }),
  ],
  { error: 'Escolha o que esta opção faz' },
);

const menuOption = z.object({
  /** '0' is kept for going back. */
  key: z
    .string({ error: requiredText })
    .trim()
    .regex(/^[1-9]$/, { error: menuTexts.key }),
  label: requiredString(60),
  action: optionAction,
});

const menuNode = z.object({
  id: idField,
  text: messageText,
  options: z.array(menuOption).min(1, { error: 'Cadastre pelo menos uma opção' }).max(9, { error: 'Use no máximo 9 opções' }),
});
export type MenuNode = z.infer<typeof menuNode>;

/** A connection's menu: the first of `menus` is where a conversation starts. */
export const connectionMenuSchema = z
  .object({
    enabled: z.boolean({ error: requiredText }),
    menus: z.array(menuNode).min(1, { error: 'Cadastre pelo menos um menu' }).max(30, { error: 'Use no máximo 30 menus' }),
    invalidText: messageText,
    /** After this many invalid options in a row the conversation goes to `timeoutDepartmentId`. */
    maxInvalid: z.number({ error: requiredText }).int().min(1, { error: 'Use pelo menos 1' }).max(10, { error: 'Use no máximo 10' }).default(3),
    timeoutMinutes: minutesField(1440),
    /** Where a conversation goes when the customer does not choose in time; null: no department. */
    timeoutDepartmentId: idField.nullable(),
  })
  .superRefine((menu, ctx) => {
    const ids = menu.menus.map((m) => m.id);
    menu.menus.forEach((node, i) => {
      if (ids.indexOf(node.id) < i) ctx.addIssue({ code: 'custom', message: menuTexts.menuRepeated, path: ['menus', i, 'id'] });
      node.options.forEach((option, j) => {
        if (node.options.findIndex((o) => o.key === option.key) < j)
          ctx.addIssue({ code: 'custom', message: menuTexts.keyRepeated, path: ['menus', i, 'options', j, 'key'] });
        if (option.action.kind === 'submenu' && !ids.includes(option.action.menuId)) {
          ctx.addIssue({ code: 'custom', message: menuTexts.submenuMissing, path: ['menus', i, 'options', j, 'action', 'menuId'] });
        }
      });
    });
  });
export type ConnectionMenu = z.infer<typeof connectionMenuSchema>;

/** The rating question's options, best first, where the channel shows buttons or a list (the text asks for a digit). */
export const ratingChoices = [
  { key: '5', label: '5 - Excelente' },
  { key: '4', label: '4 - Bom' },
  { key: '3', label: '3 - Regular' },
  { key: '2', label: '2 - Ruim' },
  { key: '1', label: '1 - Péssimo' },
] as const;

/** A menu's options as buttons or a list show them: each option's key and label, and '0' to go back below the first menu. */
export function menuChoices(node: MenuNode, isRoot: boolean): { key: string; label: string }[] {
  return [...node.options.map((o) => ({ key: o.key, label: o.label })), ...(isRoot ? [] : [{ key: '0', label: 'Voltar' }])];
}

/** The text a menu is sent as: its text, then one line an option, then '0 - Voltar' below the first menu. */
export function menuMessage(node: MenuNode, isRoot: boolean): string {
  return [node.text, '', ...node.options.map((o) => `${o.key} - ${o.label}`), ...(isRoot ? [] : [menuTexts.back])].join('\n');
}

/** GET / PUT /automations: the settings, and whether they were ever saved (false: `defaultAutomationSettings`). */
export type AutomationSettingsAnswer = AutomationSettings & { saved: boolean; updatedAt: string | null };

/** GET / PUT /services/{id}/menu: the connection's menu, null until one is saved. */
export interface ConnectionMenuAnswer {
  menu: ConnectionMenu | null;
  updatedAt: string | null;
}

/** The server's field messages for things named that do not exist (or are archived). */
export const automationTexts = {
  departmentMissing: 'Departamento não encontrado',
  userMissing: 'Usuário não encontrado',
} as const;
