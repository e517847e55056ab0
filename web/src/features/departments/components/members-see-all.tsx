import { Card } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { showToast } from '#web/lib/notify.ts';
import { useInboxSettings, useSaveInboxSettings } from '#web/features/departments/api/inbox-settings.ts';

/** The account setting 'Membros veem todas as conversas' (PUT /inbox/settings), for admins. */
export function MembersSeeAllSetting() {
  const settings = useInboxSettings();
  const save = useSaveInboxSettings();
  const checked = save.isPending ? !!save.variables?.membersSeeAll : !!settings.data?.membersSeeAll;
  return (
    <Card className="flex items-start gap-3 p-4">
      <input
        id="inbox-members-see-all"
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 cursor-pointer accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        checked={checked}
        disabled={!settings.data || save.isPending}
        aria-describedby="inbox-members-see-all-hint"
        onChange={(e) =>
          save.mutate(
            { membersSeeAll: e.target.checked },
            {
              onSuccess: (answer) =>
                showToast({
                  tone: 'success',
                  title: answer.membersSeeAll ? 'Membros agora veem todas as conversas' : 'Membros agora veem só as suas conversas e as dos seus departamentos',
                }),
            },
          )
        }
      />
      <div className="min-w-0 space-y-1">
        <label htmlFor="inbox-members-see-all" className="flex items-center gap-2 text-sm font-medium text-fg">
          Membros veem todas as conversas {settings.isPending || save.isPending ? <Spinner className="size-3.5 text-brand" /> : null}
        </label>
        <p id="inbox-members-see-all-hint" className="text-xs text-fg-muted">
          Desligado, cada membro vê as conversas que atende, as sem atendente dos seus departamentos e as sem departamento. Administradores sempre veem todas.
        </p>
      </div>
    </Card>
  );
}
