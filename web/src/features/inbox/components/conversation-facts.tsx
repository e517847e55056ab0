import { useState } from 'react';
import { Building2, Tag as TagIcon, UserRound } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { conversationStatusLabels, type ConversationStatus } from '#contracts/conversation-labels.ts';
import { ContactTagsDialog } from '#web/components/contact-tags-dialog.tsx';
import { Badge } from '#web/components/ui/misc.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { useAllTags } from '#web/api/tags.ts';

const statusTones: Record<ConversationStatus, 'brand' | 'warning' | 'success'> = { open: 'brand', pending: 'warning', resolved: 'success' };
/** Chips shown before '+N' (the rest are in the tags dialog). */
const shownTags = 3;

/** The conversation's status, who handles it, its department and the contact's tags (with the tags dialog). */
export function ConversationFacts({ contact }: { contact: Contact }) {
  const [tagging, setTagging] = useState(false);
  const palette = useAllTags().data?.data;
  const tags = (contact.tags ?? []).flatMap((id) => palette?.find((t) => t.id === id) ?? []);
  const status = contact.status ?? 'open';
  return (
    <dl className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-fg-muted" data-testid="conversation-facts">
      <div className="flex items-center">
        <dt className="sr-only">Status</dt>
        <dd>
          <Badge tone={statusTones[status]}>{conversationStatusLabels[status]}</Badge>
        </dd>
      </div>
      <div className="flex min-w-0 items-center gap-1">
        <dt>
          <UserRound className="size-3.5" aria-hidden="true" />
          <span className="sr-only">Atendente</span>
        </dt>
        <dd className={contact.user ? 'truncate font-medium text-fg' : 'truncate'} data-testid="conversation-assignee">
          {contact.user?.name ?? 'Não atribuída'}
        </dd>
      </div>
      <div className="flex min-w-0 items-center gap-1">
        <dt>
          <Building2 className="size-3.5" aria-hidden="true" />
          <span className="sr-only">Departamento</span>
        </dt>
        <dd className={contact.department ? 'truncate font-medium text-fg' : 'truncate'} data-testid="conversation-department">
          {contact.department?.name ?? 'Sem departamento'}
        </dd>
      </div>
      <div className="flex min-w-0 items-center gap-1">
        <dt className="sr-only">Etiquetas</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-1">
          {tags.slice(0, shownTags).map((tag) => (
            <TagChip key={tag.id} name={tag.name} color={tag.color} />
          ))}
          {tags.length > shownTags ? <span className="font-medium">+{tags.length - shownTags}</span> : null}
          <button
            type="button"
            onClick={() => setTagging(true)}
            aria-label={`Etiquetas de ${contact.name}`}
            title="Etiquetas"
            className="inline-flex h-6 items-center gap-1 rounded-full border border-dashed border-border-strong px-2 text-xs font-medium text-fg-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
          >
            <TagIcon className="size-3.5" aria-hidden="true" />
            Etiquetas
          </button>
        </dd>
      </div>
      {tagging && palette ? <ContactTagsDialog contact={contact} tags={palette} onClose={() => setTagging(false)} /> : null}
    </dl>
  );
}
