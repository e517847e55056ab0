import { useState } from 'react';
import { Link } from 'react-router';
import type { Contact } from '#contracts/contacts.ts';
import type { Tag } from '#contracts/tags.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { useSaveContactTags } from '#web/api/save-contact-tags.ts';

/** 'Etiquetas de {contato}': one checkbox per tag of the account, saved together (the contacts list and the conversation header). */
export function ContactTagsDialog({ contact, tags, onClose }: { contact: Contact; tags: Tag[]; onClose: () => void }) {
  const { user } = useSession();
  const known = new Set(tags.map((t) => t.id));
  const [chosen, setChosen] = useState<string[]>(() => (contact.tags ?? []).filter((id) => known.has(id)));
  const save = useSaveContactTags();
  const toggle = (id: string) => setChosen((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  const tooMany = chosen.length > 20;
  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={`Etiquetas de ${contact.name}`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancelar
          </Button>
          <Button
            loading={save.isPending}
            disabled={tooMany || tags.length === 0}
            onClick={() =>
              save.mutate(
                { id: contact.id, tagIds: chosen },
                {
                  onSuccess: () => {
                    showToast({ tone: 'success', title: 'Etiquetas do contato atualizadas' });
                    onClose();
                  },
                },
              )
            }
          >
            Salvar
          </Button>
        </>
      }
    >
      {tags.length === 0 ? (
        <p className="text-sm text-fg-muted">
          Ainda não há etiquetas.{' '}
          {user?.isAdmin ? (
            <Link to="/tags/create" className="font-medium text-brand underline-offset-2 hover:underline">
              Criar a primeira etiqueta
            </Link>
          ) : (
            'Peça a um administrador para criá-las.'
          )}
        </p>
      ) : (
        <fieldset className="space-y-1">
          <legend className="sr-only">Etiquetas</legend>
          {tags.map((tag) => (
            <label key={tag.id} className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 hover:bg-surface-2">
              <input type="checkbox" className="size-4 shrink-0 accent-brand" checked={chosen.includes(tag.id)} onChange={() => toggle(tag.id)} />
              <TagChip name={tag.name} color={tag.color} />
            </label>
          ))}
          {tooMany ? (
            <p className="text-xs font-medium text-danger" role="alert">
              Use no máximo 20 etiquetas por contato
            </p>
          ) : null}
        </fieldset>
      )}
    </Dialog>
  );
}
