import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Clock } from 'lucide-react';
import { type AutomationSettings, type AutomationSettingsAnswer, automationSettingsSchema } from '#contracts/automations.ts';
import { Button } from '#web/components/ui/button.tsx';
import { SelectField } from '#web/components/ui/field.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useAllDepartments } from '#web/api/departments.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useAutomations, useSaveAutomations } from '#web/api/automations.ts';
import { errorsOf, type FieldErrors } from '#web/features/automations/menu-form.ts';
import { MessageField } from './message-field.tsx';
import { NumberField } from './number-field.tsx';
import { OptOutSetting } from './opt-out-setting.tsx';
import { SwitchField } from '#web/components/switch-field.tsx';

/** The settings with a switch and fields of their own (the others are switches alone). */
type Rule = { [K in keyof AutomationSettings]: AutomationSettings[K] extends { enabled: boolean } ? K : never }[keyof AutomationSettings];

function Section({ id, title, description, children, toggle }: { id: string; title: string; description: ReactNode; children?: ReactNode; toggle: ReactNode }) {
  return (
    <Card className="space-y-4 p-4 sm:p-6" aria-labelledby={`${id}-title`} role="region">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id={`${id}-title`} className="text-base font-semibold text-fg">
            {title}
          </h2>
          <p className="mt-0.5 text-sm text-fg-muted">{description}</p>
        </div>
        {toggle}
      </div>
      {children}
    </Card>
  );
}

const stripAnswer = ({ saved: _saved, updatedAt: _updatedAt, ...settings }: AutomationSettingsAnswer): AutomationSettings => settings;

/**
 * 'Automações' (/automations): the automated messages, automatic distribution, inactivity, the
 * rating and where a reopened conversation goes (docs/conversation-lifecycle.md), saved whole by an
 * admin; members see them read only. A rule switched off keeps its fields without requiring them.
 */
export function AutomationsScreen() {
  const { user } = useSession();
  const readOnly = !user?.isAdmin;
  const answer = useAutomations();
  const save = useSaveAutomations();
  const departments = useAllDepartments();
  const [form, setForm] = useState<AutomationSettings | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    if (answer.data && !form) setForm(stripAnswer(answer.data));
  }, [answer.data, form]);

  const departmentOptions = useMemo(() => {
    const all = departments.data?.data ?? [];
    const chosen = form?.waitingTooLong.departmentId;
    return all.filter((d) => !d.archivedAt || d.id === chosen).map((d) => ({ value: d.id, label: d.archivedAt ? `${d.name} (arquivado)` : d.name }));
  }, [departments.data, form?.waitingTooLong.departmentId]);

  if (answer.isError) return <Alert tone="danger">Não foi possível carregar as automações.</Alert>;
  if (!form || !answer.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
        <Spinner className="size-4 text-brand" /> Carregando...
      </p>
    );
  }

  /** Changes one field of a rule; its message goes. */
  const set = <R extends Rule>(rule: R, field: string, value: unknown) => {
    setForm({ ...form, [rule]: { ...form[rule], [field]: value } } as AutomationSettings);
    setErrors((current) => {
      const { [`${rule}.${field}`]: _gone, ...rest } = current;
      return rest;
    });
  };
  const on = (rule: Rule, title: string) => (
    <SwitchField
      id={`${rule}-enabled`}
      name={title}
      label="Ativada"
      checked={form[rule].enabled}
      disabled={readOnly}
      onChange={(v) => set(rule, 'enabled', v)}
    />
  );
  const text = (rule: Rule, field: string, label: string) => (
    <MessageField
      id={`${rule}-${field}`}
      label={label}
      value={(form[rule] as Record<string, unknown>)[field] as string}
      error={errors[`${rule}.${field}`]}
      disabled={readOnly}
      onChange={(v) => set(rule, field, v)}
    />
  );
  const number = (rule: Rule, field: string, label: string, hint?: string) => (
    <NumberField
      id={`${rule}-${field}`}
      label={label}
      hint={hint}
      value={(form[rule] as Record<string, unknown>)[field] as number}
      error={errors[`${rule}.${field}`]}
      disabled={readOnly}
      onChange={(v) => set(rule, field, v)}
    />
  );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = automationSettingsSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))));
      showToast({ tone: 'error', title: 'Revise as automações', message: 'Alguns campos precisam de correção.' });
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(parsed.data);
      setForm(stripAnswer(saved));
      showToast({ tone: 'success', title: 'Automações salvas' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setErrors(errorsOf(error.details));
        showToast({ tone: 'error', title: 'Revise as automações', message: 'Alguns campos precisam de correção.' });
      } else reportError(error);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-6">
      {answer.data.saved ? null : <p className="text-xs text-fg-muted">Todas as automações começam desativadas, com textos sugeridos.</p>}
      {readOnly ? <Alert tone="info">Só administradores podem alterar as automações.</Alert> : null}

      <Section
        id="greeting"
        title="Saudação"
        description="Enviada quando um cliente começa uma conversa dentro do horário de atendimento."
        toggle={on('greeting', 'Saudação')}
      >
        {text('greeting', 'text', 'Mensagem de saudação')}
      </Section>

      <Section
        id="outOfHours"
        title="Fora do horário"
        description={
          <>
            Enviada uma vez a quem escreve enquanto o departamento da conversa está fechado. Os turnos e feriados ficam em{' '}
            <Link to="/business-hours" className="inline-flex items-center gap-1 font-medium text-brand underline-offset-2 hover:underline">
              <Clock className="size-3.5" aria-hidden="true" />
              Horário de atendimento
            </Link>
            .
          </>
        }
        toggle={on('outOfHours', 'Fora do horário')}
      >
        {text('outOfHours', 'text', 'Mensagem fora do horário')}
      </Section>

      <Section
        id="noAnswer"
        title="Ninguém respondeu"
        description="Enviada uma vez quando a conversa espera na fila, dentro do horário, sem resposta da equipe."
        toggle={on('noAnswer', 'Ninguém respondeu')}
      >
        {number('noAnswer', 'minutes', 'Enviar depois de (minutos)')}
        {text('noAnswer', 'text', 'Mensagem de espera')}
      </Section>

      <Section
        id="closing"
        title="Encerramento"
        description="Enviada quando a conversa é resolvida, por alguém da equipe ou por inatividade."
        toggle={on('closing', 'Encerramento')}
      >
        {text('closing', 'text', 'Mensagem de encerramento')}
      </Section>

      <Section
        id="rejectCalls"
        title="Rejeitar ligações do WhatsApp"
        description="Ligações de voz e de vídeo para uma conexão por QR code são recusadas na hora, e quem ligou recebe esta mensagem. A conversa mostra que houve uma ligação mesmo com a opção desativada. Ligações em grupo não são recusadas."
        toggle={on('rejectCalls', 'Rejeitar ligações do WhatsApp')}
      >
        {text('rejectCalls', 'text', 'Mensagem para quem ligou')}
      </Section>

      <Section
        id="waitingTooLong"
        title="Espera longa na fila"
        description="Move para outro departamento a conversa que espera sem ninguém atender por tempo demais."
        toggle={on('waitingTooLong', 'Espera longa na fila')}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {number('waitingTooLong', 'minutes', 'Depois de (minutos)')}
          <SelectField
            id="waitingTooLong-departmentId"
            label="Mover para o departamento"
            placeholder="Escolha um departamento"
            options={departmentOptions}
            value={form.waitingTooLong.departmentId}
            disabled={readOnly}
            error={errors['waitingTooLong.departmentId']}
            onChange={(e) => set('waitingTooLong', 'departmentId', e.target.value)}
          />
        </div>
      </Section>

      <Section
        id="roundRobin"
        title="Distribuição automática"
        description="Cada conversa que entra na fila de um departamento vai para a próxima pessoa online dele, em rodízio, até o limite de cada uma."
        toggle={on('roundRobin', 'Distribuição automática')}
      >
        {number('roundRobin', 'maxOpenPerAgent', 'Máximo de conversas abertas por pessoa')}
      </Section>

      <Section
        id="inactivity"
        title="Inatividade"
        description="Encerra a conversa quando o cliente não responde depois da última mensagem da equipe, com um aviso antes."
        toggle={on('inactivity', 'Inatividade')}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {number('inactivity', 'closeAfterHours', 'Encerrar depois de (horas)')}
          {number('inactivity', 'warnBeforeMinutes', 'Avisar antes (minutos)')}
        </div>
        {text('inactivity', 'warningText', 'Mensagem de aviso')}
      </Section>

      <Section
        id="rating"
        title="Avaliação"
        description="Ao resolver a conversa, pede uma nota de 1 a 5. Uma resposta que não é nota começa uma conversa nova, como sempre."
        toggle={on('rating', 'Avaliação')}
      >
        {text('rating', 'question', 'Pergunta')}
        {text('rating', 'thanks', 'Agradecimento')}
      </Section>

      <Section
        id="reopenToLastAgent"
        title="Conversa reaberta volta para quem atendia"
        description="Quando o cliente escreve numa conversa resolvida, ela volta direto para quem a atendia, sem saudação nem menu. Desativada, começa do início."
        toggle={
          <SwitchField
            id="reopenToLastAgent"
            name="Conversa reaberta volta para quem atendia"
            label="Ativada"
            checked={form.reopenToLastAgent}
            disabled={readOnly}
            onChange={(v) => setForm({ ...form, reopenToLastAgent: v })}
          />
        }
      />

      <Section
        id="signMessages"
        title="Assinar mensagens com o nome do atendente"
        description="As mensagens da equipe chegam ao cliente com o nome de quem enviou na primeira linha. Quem preferir pode desativar no próprio cadastro, em 'Não assinar minhas mensagens'. Mensagens automáticas e notas nunca são assinadas."
        toggle={
          <SwitchField
            id="signMessages"
            name="Assinar mensagens com o nome do atendente"
            label="Ativada"
            checked={form.signMessages}
            disabled={readOnly}
            onChange={(v) => setForm({ ...form, signMessages: v })}
          />
        }
      />

      <Section
        id="optOut"
        title="Descadastro de campanhas"
        description="Quem envia só uma das palavras para sair deixa de receber campanhas (LGPD); a conversa continua normalmente. Ligada, a opção responde com a confirmação."
        toggle={
          <SwitchField
            id="optOut-confirmation"
            name="Enviar confirmação de descadastro"
            label="Enviar confirmação"
            checked={form.optOut.confirmation.enabled}
            disabled={readOnly}
            onChange={(v) => setForm({ ...form, optOut: { ...form.optOut, confirmation: { ...form.optOut.confirmation, enabled: v } } })}
          />
        }
      >
        <OptOutSetting
          value={form.optOut}
          errors={errors}
          disabled={readOnly}
          onChange={(optOut, cleared) => {
            setForm({ ...form, optOut });
            setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !cleared.some((path) => key.startsWith(path)))));
          }}
        />
      </Section>

      {readOnly ? null : (
        <div className="sticky bottom-0 -mx-4 flex justify-end border-t border-border bg-bg/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
          <Button type="submit" loading={save.isPending}>
            Salvar automações
          </Button>
        </div>
      )}
    </form>
  );
}
