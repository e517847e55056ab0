import { memo } from 'react';
import { Link } from 'react-router';
import { UserRound, Users } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import type { Tag } from '#contracts/tags.ts';
import { Badge } from '#web/components/ui/misc.tsx';
import { TagChip } from '#web/components/ui/tag-chip.tsx';
import { cn } from '#web/lib/cn.ts';
import { formatListTime } from '#web/lib/format.ts';
import { AckStatus } from './ack-status.tsx';
import { Avatar } from './avatar.tsx';
import { ChannelIcon } from './channel-icon.tsx';
import { summaryText } from './message-bubble.tsx';

export const contactRowHeight = 88;
/** Chips shown on a row; the rest are counted as '+N'. */
const shownTags = 2;

/** Who handles the conversation, its department and its tags, on one line that truncates rather than wraps. */
function Assignment({ contact, tags }: { contact: Contact; tags: readonly Tag[] }) {
  const hidden = tags.length - shownTags;
  return (
    <div className="mt-1 flex h-5 items-center gap-2 text-[11px] text-fg-muted" data-testid="inbox-contact-assignment">
      <span className="flex min-w-0 items-center gap-1">
        <UserRound className="size-3 shrink-0" aria-hidden="true" />
        <span className="sr-only">Atendente: </span>
        <span className={cn('truncate', contact.user ? 'font-medium text-fg' : 'italic')}>{contact.user?.name ?? 'Não atribuída'}</span>
      </span>
      {contact.department ? (
        <span className="flex min-w-0 items-center gap-1">
          <Users className="size-3 shrink-0" aria-hidden="true" />
          <span className="sr-only">Departamento: </span>
          <span className="truncate">{contact.department.name}</span>
        </span>
      ) : null}
      {tags.length ? (
        <span className="ml-auto flex shrink-0 items-center gap-1">
          <span className="sr-only">Etiquetas: </span>
          {tags.slice(0, shownTags).map((tag) => (
            <TagChip key={tag.id} name={tag.name} color={tag.color} className="max-w-20 px-1.5 py-0 text-[11px] leading-4" />
          ))}
          {hidden > 0 ? (
            <span
              className="rounded-full bg-surface-2 px-1.5 text-[11px] leading-4 font-medium text-fg-muted"
              title={tags
                .slice(shownTags)
                .map((t) => t.name)
                .join(', ')}
            >
              +{hidden}
              <span className="sr-only"> {hidden === 1 ? 'etiqueta' : 'etiquetas'}</span>
            </span>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}

export interface ContactRowProps {
  contact: Contact;
  selected: boolean;
  /** The contact's tags from the palette (api/tags.ts, useContactTags: one array per version, so rows stay memoised). */
  tags: readonly Tag[];
  /** The inbox's search params ('?tab=mine'), kept when a conversation opens. */
  search: string;
}

/**
 * One conversation in the list. Memoised on its props: the cache keeps an unchanged contact's
 * object as it is (lib/list-cache.ts, placeContact), so a realtime event re-renders the row of the
 * contact it changed and no other, even when that contact moves to the top and the rest shift down
 * (the shift is the <li>'s transform, outside the row). Its time and summary are worked out here,
 * once per version of the contact.
 */
export const ContactRow = memo(function ContactRow({ contact, selected, tags, search }: ContactRowProps) {
  const last = contact.lastMessage;
  return (
    <Link
      to={{ pathname: `/inbox/${contact.id}`, search }}
      aria-current={selected ? 'page' : undefined}
      className={cn(
        'flex h-[88px] items-center gap-3 border-b border-border px-3 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
        selected ? 'bg-brand-soft' : 'hover:bg-surface-2',
      )}
      data-testid="inbox-contact"
    >
      <Avatar name={contact.name} url={contact.avatar?.url ?? contact.avatarUrl} />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span className="truncate text-sm font-semibold text-fg" data-testid="inbox-contact-name">
            {contact.name}
          </span>
          {contact.archivedAt ? (
            <Badge tone="warning" className="px-1.5 py-0 text-[10px]">
              Arquivado
            </Badge>
          ) : null}
          <span className={cn('ml-auto shrink-0 text-xs', contact.unread > 0 ? 'font-semibold text-brand' : 'text-fg-muted')}>
            {formatListTime(contact.lastMessageAt ?? last?.timestamp)}
          </span>
        </div>
        <div className="mt-0.5 flex items-center gap-1.5">
          <ChannelIcon type={contact.service?.type} className="shrink-0" />
          {last?.isFromMe ? <AckStatus ack={last.ack} className="shrink-0 text-fg-muted" /> : null}
          <span className="truncate text-xs text-fg-muted">{last ? summaryText(last) : 'Sem mensagens'}</span>
          {contact.unread > 0 ? (
            <span className="ml-auto flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand px-1.5 text-[11px] font-semibold text-brand-fg">
              {contact.unread > 99 ? '99+' : contact.unread}
              <span className="sr-only"> mensagens não lidas</span>
            </span>
          ) : null}
        </div>
        <Assignment contact={contact} tags={tags} />
      </div>
    </Link>
  );
});
