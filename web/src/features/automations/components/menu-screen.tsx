import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { SelectField } from '#web/components/ui/field.tsx';
import { Alert, Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useAllDepartments } from '#web/api/departments.ts';
import { useAllUsers } from '#web/api/users.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useConnectionMenu, useSaveConnectionMenu } from '#web/api/automations.ts';
import { type ConnectionMenuDraft, checkMenu, errorsOf, type FieldErrors, toDraft } from '#web/features/automations/menu-form.ts';
import type { PreviewNames } from '#web/features/automations/menu-preview.ts';
import { MenuEditor } from './menu-editor.tsx';
import { MenuPreviewPanel } from './menu-preview-panel.tsx';
import { MenuTree } from './menu-tree.tsx';
import { MessageField } from './message-field.tsx';
import { NumberField } from './number-field.tsx';
import { SwitchField } from '#web/components/switch-field.tsx';

/** The active ones, plus any the form names that is archived or gone (shown as such, to be replaced). */
function choices(items: { id: string; name: string; archivedAt: string | null }[], named: string[]) {
  const known = items
    .filter((d) => !d.archivedAt || named.includes(d.id))
    .map((d) => ({ value: d.id, label: d.archivedAt ? `${d.name} (arquivado)` : d.name }));
  const gone = named.filter((id) => id && !items.some((d) => d.id === id)).map((id) => ({ value: id, label: 'Removido' }));
  return [...known, ...gone];
}

/**
 * 'Menu de atendimento' of a connection (/services/{id}/menu): the menu ('URA') a customer gets
 * at the start of a conversation in business hours (docs/conversation-lifecycle.md), its submenus,
 * what happens on an invalid option or no answer; a tree of the menus and a 'Testar' panel that
 * plays it from the form as it is. Saved whole by an admin; members see it read only. The page
 * (app/routes/app/service-menu.tsx) gives the connection's name.
 */
export function MenuScreen({ serviceId, serviceName }: { serviceId: string; serviceName: string | undefined }) {
  const { user } = useSession();
  const readOnly = !user?.isAdmin;
  const answer = useConnectionMenu(serviceId);
  const save = useSaveConnectionMenu(serviceId);
  const departments = useAllDepartments();
  const users = useAllUsers();
  const [draft, setDraft] = useState<ConnectionMenuDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [previewRun, setPreviewRun] = useState(0);

  useEffect(() => {
    if (answer.data && !draft) setDraft(toDraft(answer.data.menu));
  }, [answer.data, draft]);

  const allDepartments = departments.data?.data ?? [];
  const allUsers = users.data?.data ?? [];
  const names: PreviewNames = useMemo(
    () => ({
      department: (id) => allDepartments.find((d) => d.id === id)?.name ?? 'departamento não escolhido',
      user: (id) => allUsers.find((u) => u.id === id)?.name ?? 'pessoa não escolhida',
    }),
    [allDepartments, allUsers],
  );

  const header = (
    <div>
      <Link to="/services" className="inline-flex items-center gap-1 text-sm text-fg-muted hover:text-fg">
        <ArrowLeft className="size-4" aria-hidden="true" /> Conexões
      </Link>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-fg">Menu de atendimento</h1>
      <p className="mt-1 text-sm text-fg-muted">
        {serviceName ? `${serviceName} · ` : ''}As opções que o cliente recebe ao começar uma conversa no horário de atendimento.
      </p>
    </div>
  );

  if (answer.isError) {
    const missing = answer.error instanceof ApiError && answer.error.status === 404;
    return (
      <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
        {header}
        <Alert tone="danger">{missing ? 'Conexão não encontrada.' : 'Não foi possível carregar o menu de atendimento.'}</Alert>
      </div>
    );
  }
  if (!draft || !answer.data) {
    return (
      <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
        {header}
        <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
          <Spinner className="size-4 text-brand" /> Carregando...
        </p>
      </div>
    );
  }

  const named = (kind: 'departmentId' | 'userId') => draft.menus.flatMap((m) => m.options.map((o) => o[kind]));
  const departmentChoices = choices(allDepartments, [...named('departmentId'), draft.timeoutDepartmentId]);
  const userChoices = choices(allUsers, named('userId'));

  const change = (next: ConnectionMenuDraft, changed: string[] | 'all') => {
    setDraft(next);
    setErrors((current) => {
      if (changed === 'all') return {};
      const rest = { ...current };
      for (const path of changed) delete rest[path];
      return rest;
    });
  };
  const set = (field: 'enabled' | 'invalidText' | 'maxInvalid' | 'timeoutMinutes' | 'timeoutDepartmentId', value: unknown) =>
    change({ ...draft, [field]: value }, [field]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkMenu(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      showToast({ tone: 'error', title: 'Revise o menu', message: 'Alguns campos precisam de correção.' });
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync(checked.payload);
      setDraft(toDraft(saved.menu));
      showToast({ tone: 'success', title: 'Menu de atendimento salvo' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setErrors(errorsOf(error.details));
        showToast({ tone: 'error', title: 'Revise o menu', message: 'Alguns campos precisam de correção.' });
      } else reportError(error);
    }
  };

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-8">
      {header}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="min-w-0 space-y-6">
          {answer.data.menu ? null : <p className="text-xs text-fg-muted">Esta conexão ainda não tem menu: abaixo, um modelo para começar.</p>}
          {readOnly ? <Alert tone="info">Só administradores podem alterar o menu de atendimento.</Alert> : null}
          <Card className="space-y-2 p-4 sm:p-6">
            <SwitchField
              id="menu-enabled"
              name="Menu de atendimento"
              label="Ativado"
              checked={draft.enabled}
              disabled={readOnly}
              onChange={(v) => set('enabled', v)}
            />
            <p className="text-sm text-fg-muted">
              Desativado, a conversa vai direto para a fila. Fora do horário, o cliente recebe só a mensagem de fora do horário, em{' '}
              <Link to="/automations" className="font-medium text-brand underline-offset-2 hover:underline">
                Automações
              </Link>
              .
            </p>
          </Card>

          <MenuEditor draft={draft} errors={errors} readOnly={readOnly} departments={departmentChoices} users={userChoices} onChange={change} />

          <Card className="space-y-4 p-4 sm:p-6" role="region" aria-labelledby="menu-fallback-title">
            <div>
              <h2 id="menu-fallback-title" className="text-base font-semibold text-fg">
                Quando o cliente não escolhe
              </h2>
              <p className="mt-0.5 text-sm text-fg-muted">O 0 volta ao menu anterior. Uma opção que não existe recebe o texto abaixo e o menu de novo.</p>
            </div>
            <MessageField
              id="menu-invalidText"
              label="Texto de opção inválida"
              value={draft.invalidText}
              error={errors.invalidText}
              disabled={readOnly}
              rows={2}
              onChange={(v) => set('invalidText', v)}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <NumberField
                id="menu-maxInvalid"
                label="Opções inválidas seguidas até ir para a fila"
                value={draft.maxInvalid}
                error={errors.maxInvalid}
                disabled={readOnly}
                onChange={(v) => set('maxInvalid', v)}
              />
              <NumberField
                id="menu-timeoutMinutes"
                label="Tempo para escolher (minutos)"
                value={draft.timeoutMinutes}
                error={errors.timeoutMinutes}
                disabled={readOnly}
                onChange={(v) => set('timeoutMinutes', v)}
              />
            </div>
            <SelectField
              id="menu-timeoutDepartmentId"
              label="Depois disso, a conversa vai para"
              hint="Também é para onde vão as conversas fora do horário e as de quem erra as opções."
              options={[{ value: '', label: 'Fila sem departamento' }, ...departmentChoices]}
              value={draft.timeoutDepartmentId}
              disabled={readOnly}
              error={errors.timeoutDepartmentId}
              onChange={(e) => set('timeoutDepartmentId', e.target.value)}
            />
          </Card>

          {readOnly ? null : (
            <div className="sticky bottom-0 -mx-4 flex justify-end border-t border-border bg-bg/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
              <Button type="submit" loading={save.isPending}>
                Salvar menu
              </Button>
            </div>
          )}
        </form>

        <aside className="space-y-6 lg:sticky lg:top-4">
          <Card className="space-y-3 p-4" role="region" aria-labelledby="menu-tree-title">
            <h2 id="menu-tree-title" className="text-base font-semibold text-fg">
              Estrutura
            </h2>
            <MenuTree draft={draft} names={names} />
          </Card>
          <Card className="space-y-3 p-4" role="region" aria-labelledby="menu-preview-title">
            <div className="flex items-center justify-between gap-2">
              <h2 id="menu-preview-title" className="text-base font-semibold text-fg">
                Testar
              </h2>
              <Button variant="link" size="sm" onClick={() => setPreviewRun((n) => n + 1)}>
                Testar com o menu atual
              </Button>
            </div>
            <p className="text-xs text-fg-muted">Digite como o cliente. Nada é enviado.</p>
            <MenuPreviewPanel key={previewRun} draft={draft} names={names} />
          </Card>
        </aside>
      </div>
    </div>
  );
}
