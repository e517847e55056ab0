import { useDeferredValue, useState } from 'react';
import { X } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { shownMessages } from '#contracts/errors.ts';
import { maxForwardTargets } from '#contracts/messages.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { InputField } from '#web/components/ui/field.tsx';
import { Alert } from '#web/components/ui/misc.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { useContactSearch } from '#web/api/search-contacts.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { useForwardMessage } from '#web/features/inbox/api/forward-message.ts';

/** How many contacts a search shows. */
const resultsShown = 20;

/** What the message carries, in one line: its text, or its file's name. */
function previewOf(message: ChatMessage): string {
  return message.text.trim() || message.file?.name || '';
}

/**
 * 'Encaminhar mensagem': search contacts by name and pick up to 10; each gets the message as a new
 * one of the caller's, marked forwarded (POST /messages/{id}/forward). Contacts that cannot receive
 * it now are named with the reason, and nothing is sent until they are taken out.
 */
export function ForwardDialog({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const results = useContactSearch(deferred, resultsShown);
  const [chosen, setChosen] = useState<Contact[]>([]);
  const [refusals, setRefusals] = useState<{ name: string; reason: string }[]>([]);
  const forward = useForwardMessage();
  const full = chosen.length >= maxForwardTargets;

  const toggle = (contact: Contact) => {
    setRefusals([]);
    setChosen((current) => (current.some((c) => c.id === contact.id) ? current.filter((c) => c.id !== contact.id) : [...current, contact]));
  };

  const onForward = async () => {
    setRefusals([]);
    try {
      await forward.mutateAsync({ id: message.id, payload: { contactId: message.contactId, toContactIds: chosen.map((c) => c.id) } });
      showToast({ tone: 'success', title: chosen.length === 1 ? 'Mensagem encaminhada' : `Mensagem encaminhada para ${chosen.length} contatos` });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.details.length) {
        setRefusals(
          error.details.map((d) => {
            const index = /^toContactIds\.(\d+)$/.exec(d.path)?.[1];
            const contact = index === undefined ? undefined : chosen[Number(index)];
            // The catalogue's texts in pt-BR; the message's own refusals come in pt-BR already.
            return { name: contact?.name ?? 'Mensagem', reason: shownMessages[d.message] ?? d.message };
          }),
        );
      } else reportError(error);
    }
  };

  const list = results.data?.data ?? [];
  return (
    <Dialog
      open
      onClose={onClose}
      title="Encaminhar mensagem"
      description={`Escolha até ${maxForwardTargets} contatos. Cada um recebe a mensagem como uma nova mensagem sua, marcada como encaminhada.`}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={() => void onForward()} loading={forward.isPending} disabled={chosen.length === 0}>
            {chosen.length ? `Encaminhar (${chosen.length})` : 'Encaminhar'}
          </Button>
        </div>
      }
    >
      <div className="space-y-4">
        {previewOf(message) ? (
          <p className="line-clamp-2 rounded-lg border-l-4 border-brand bg-surface-2 px-3 py-2 text-sm text-fg-muted" data-testid="forward-preview">
            {previewOf(message)}
          </p>
        ) : null}
        <InputField
          id="forward-search"
          label="Buscar contato"
          type="search"
          autoComplete="off"
          placeholder="Nome do contato"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          hint={full ? `Você já escolheu ${maxForwardTargets} contatos, o máximo de uma vez.` : undefined}
        />
        {chosen.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Contatos escolhidos">
            {chosen.map((contact) => (
              <li key={contact.id} className="flex items-center gap-1 rounded-full bg-brand-soft py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-soft-fg">
                {contact.name}
                <button
                  type="button"
                  onClick={() => toggle(contact)}
                  aria-label={`Remover ${contact.name}`}
                  className="flex size-5 items-center justify-center rounded-full hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {refusals.length ? (
          <Alert tone="danger" title="Nada foi encaminhado">
            <ul className="space-y-1">
              {refusals.map((r) => (
                <li key={`${r.name}-${r.reason}`}>
                  <span className="font-medium">{r.name}:</span> {r.reason}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {results.isPending ? (
          <p className="flex items-center gap-2 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Carregando...
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-fg-muted">Nenhum contato encontrado.</p>
        ) : (
          <fieldset className="max-h-64 space-y-0.5 overflow-y-auto">
            <legend className="sr-only">Contatos</legend>
            {list.map((contact) => {
              const checked = chosen.some((c) => c.id === contact.id);
              const id = `forward-${contact.id}`;
              return (
                <div key={contact.id} className="flex items-center gap-2.5 rounded-md px-2 py-1.5 hover:bg-surface-2">
                  <input
                    id={id}
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && full}
                    onChange={() => toggle(contact)}
                    className="size-4 shrink-0 cursor-pointer accent-brand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed"
                  />
                  <label htmlFor={id} className="min-w-0 flex-1 cursor-pointer text-sm text-fg">
                    <span className="block truncate">{contact.name}</span>
                    {contact.service ? <span className="block truncate text-xs text-fg-muted">{contact.service.name}</span> : null}
                  </label>
                </div>
              );
            })}
          </fieldset>
        )}
      </div>
    </Dialog>
  );
}
