import { Building2 } from 'lucide-react';
import type { AccountChoice } from '#contracts/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';

export interface AccountChoiceDialogProps {
  open: boolean;
  title: string;
  description?: string;
  /** The button text of each option: 'Logar' (login) or 'Alterar' (reset). */
  actionLabel: string;
  choices: AccountChoice[];
  /** The account id being submitted, to show its button as busy. */
  pendingAccountId?: string | null;
  onChoose: (choice: AccountChoice) => void;
  onClose: () => void;
}

/** Lists the accounts an e-mail belongs to (name, e-mail, account) so the person picks one. */
export function AccountChoiceDialog({ open, title, description, actionLabel, choices, pendingAccountId, onChoose, onClose }: AccountChoiceDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      <ul className="-mx-1 space-y-2" aria-label="Contas">
        {choices.map((choice) => {
          const infoId = `choice-${choice.accountId}`;
          return (
            <li key={`${choice.id}-${choice.accountId}`} className="flex items-center gap-3 rounded-xl border border-border bg-bg-subtle p-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-soft text-brand-soft-fg">
                <Building2 className="size-5" aria-hidden="true" />
              </span>
              <div id={infoId} className="min-w-0 flex-1">
                <p className="truncate text-sm font-semibold text-fg">{choice.account?.name ?? 'Conta sem nome'}</p>
                <p className="truncate text-xs text-fg-muted">
                  {choice.name} · {choice.email}
                </p>
              </div>
              <Button
                size="sm"
                onClick={() => onChoose(choice)}
                loading={pendingAccountId === choice.accountId}
                disabled={Boolean(pendingAccountId) && pendingAccountId !== choice.accountId}
                aria-describedby={infoId}
              >
                {actionLabel}
              </Button>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
