import type { Contact } from '#contracts/contacts.ts';
import { Button } from '#web/components/ui/button.tsx';
import { formatDate } from '#web/lib/format.ts';
import { showToast } from '#web/lib/notify.ts';
import { useClearOptOut } from '#web/features/contacts/api/clear-opt-out.ts';

/**
 * On the contact's page: 'Descadastrado de campanhas em dd/MM/yyyy' with the word the customer sent,
 * and for admins 'Reativar campanhas' (ADR-0225). Nothing while the contact receives them.
 */
export function OptOutNotice({ contact, canClear }: { contact: Pick<Contact, 'id' | 'optedOutAt' | 'optedOutWord'>; canClear: boolean }) {
  const clear = useClearOptOut();
  if (!contact.optedOutAt) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-warning/40 bg-warning-soft p-3 text-sm text-fg" role="status">
      <p>
        <span className="font-medium">Descadastrado de campanhas em {formatDate(contact.optedOutAt)}</span>
        {contact.optedOutWord ? <span className="text-fg-muted"> (enviou “{contact.optedOutWord}”)</span> : null}
      </p>
      {canClear ? (
        <Button
          variant="outline"
          size="sm"
          loading={clear.isPending}
          onClick={() => clear.mutate(contact.id, { onSuccess: () => showToast({ tone: 'success', title: 'O contato voltará a receber campanhas' }) })}
        >
          Reativar campanhas
        </Button>
      ) : null}
    </div>
  );
}
