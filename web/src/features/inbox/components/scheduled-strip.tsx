import { useState } from 'react';
import { CalendarClock, Paperclip, Pencil, Trash2 } from 'lucide-react';
import { scheduleRepeatLabels, type ScheduledMessage } from '#contracts/scheduled-messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { showToast } from '#web/lib/notify.ts';
import { useCancelScheduledMessage } from '#web/features/inbox/api/cancel-scheduled-message.ts';
import { useScheduledMessages } from '#web/features/inbox/api/get-scheduled-messages.ts';
import { ScheduleDialog } from './schedule-dialog.tsx';

/**
 * The conversation's scheduled messages, above the composer (docs/product.md#scheduled-messages):
 * each with its next time (dd/MM/yyyy HH:mm in the account's zone) and repetition, 'Editar' and
 * 'Cancelar' until it is sent. Nothing shows while there is none.
 */
export function ScheduledStrip({ contact }: { contact: { id: string; serviceId: string } }) {
  const scheduled = useScheduledMessages(contact.id);
  const cancel = useCancelScheduledMessage();
  const [editing, setEditing] = useState<ScheduledMessage | null>(null);
  const [cancelling, setCancelling] = useState<ScheduledMessage | null>(null);
  const items = scheduled.data ?? [];
  if (!items.length && !editing && !cancelling) return null;

  const confirmCancel = () => {
    if (!cancelling) return;
    cancel.mutate(
      { id: cancelling.id, contactId: contact.id },
      {
        onSuccess: () => showToast({ tone: 'success', title: 'Agendamento cancelado' }),
        onSettled: () => setCancelling(null),
      },
    );
  };

  return (
    <section className="border-t border-border bg-surface px-3 py-2 sm:px-4" aria-label="Mensagens agendadas">
      <h2 className="flex items-center gap-1.5 text-xs font-semibold text-fg-muted">
        <CalendarClock className="size-4" aria-hidden="true" /> Mensagens agendadas ({items.length})
      </h2>
      <ul className="mt-1 max-h-32 space-y-1 overflow-y-auto">
        {items.map((item) => (
          <li key={item.id} className="flex items-center gap-2 rounded-lg bg-bg-subtle px-2 py-1 text-sm">
            <div className="min-w-0 flex-1">
              <p className="truncate text-fg">
                {item.file ? <Paperclip className="mr-1 inline size-3.5" aria-label={`Anexo: ${item.file.name}`} /> : null}
                {item.text || item.file?.name}
              </p>
              <p className="text-xs text-fg-muted">
                <time dateTime={item.nextAt ?? undefined}>{item.nextAtText}</time> · {scheduleRepeatLabels[item.repeat]}
              </p>
            </div>
            <Button variant="ghost" size="icon" onClick={() => setEditing(item)} aria-label={`Editar agendamento de ${item.nextAtText}`}>
              <Pencil className="size-4" aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" onClick={() => setCancelling(item)} aria-label={`Cancelar agendamento de ${item.nextAtText}`}>
              <Trash2 className="size-4" aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      {editing ? <ScheduleDialog contact={contact} schedule={editing} onClose={() => setEditing(null)} /> : null}
      {cancelling ? (
        <ConfirmDialog
          title="Cancelar agendamento"
          message={`A mensagem de ${cancelling.nextAtText} não será enviada${cancelling.repeat === 'once' ? '' : ', nem as próximas'}.`}
          confirmLabel="Cancelar agendamento"
          busy={cancel.isPending}
          onConfirm={confirmCancel}
          onClose={() => setCancelling(null)}
        />
      ) : null}
    </section>
  );
}
