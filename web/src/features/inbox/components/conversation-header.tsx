import { useLocation } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { serviceTypeLabels } from '#contracts/service-labels.ts';
import { ButtonLink } from '#web/components/ui/button.tsx';
import { Badge } from '#web/components/ui/misc.tsx';
import { formatPresence } from '#web/lib/format.ts';
import { Avatar } from './avatar.tsx';
import { ChannelIcon } from './channel-icon.tsx';
import { ConversationActions } from './conversation-actions.tsx';
import { ConversationFacts } from './conversation-facts.tsx';

/**
 * The conversation's header: back to the list (phones) with the list's filters (the address's
 * query: ?tab=&status=&q=...), avatar, name, presence and connection, the actions on the
 * conversation; below, its status, who handles it, its department and tags.
 */
export function ConversationHeader({ contact }: { contact: Contact }) {
  const presence = formatPresence(contact.isOnline, contact.lastSeenAt);
  const { search } = useLocation();
  return (
    <header className="shrink-0 border-b border-border bg-surface px-3 pb-2 sm:px-4">
      <div className="flex h-14 items-center gap-3">
        <ButtonLink
          to={{ pathname: '/inbox', search }}
          variant="ghost"
          size="icon"
          className="-ml-1 lg:hidden"
          aria-label="Voltar para as conversas"
          state={{ list: true }}
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </ButtonLink>
        <Avatar name={contact.name} url={contact.avatar?.url ?? contact.avatarUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="flex items-center gap-2 truncate text-base font-semibold text-fg">
            <span className="truncate">{contact.name}</span>
            {contact.archivedAt ? <Badge tone="warning">Arquivado</Badge> : null}
          </h2>
          <p className="flex items-center gap-1.5 truncate text-xs text-fg-muted">
            {presence ? <span>{presence}</span> : null}
            {presence && contact.service ? <span aria-hidden="true">·</span> : null}
            {contact.service ? (
              <span className="inline-flex items-center gap-1">
                <ChannelIcon type={contact.service.type} />
                <span className="sr-only">{serviceTypeLabels[contact.service.type]}:</span>
                {contact.service.name}
              </span>
            ) : null}
          </p>
        </div>
        <ConversationActions contact={contact} />
      </div>
      <ConversationFacts contact={contact} />
    </header>
  );
}
