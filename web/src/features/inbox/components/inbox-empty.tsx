import { conversationStatusLabels, type InboxTab } from '#contracts/conversation-labels.ts';
import type { InboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';

/** What an empty tab says: 'Todos' keeps SPEC's list text, the team tabs say whose conversations are missing. */
const emptyTitles: Record<InboxTab, string> = {
  mine: 'Nenhuma conversa atribuída a você.',
  unassigned: 'Nenhuma conversa aguardando atendimento.',
  all: 'Nenhum registro encontrado',
};

/** The line under the title: what the status and the other filters leave out, or where conversations come from. */
function emptyHint(filters: InboxFilters): string {
  const filtered = !!(filters.search.trim() || filters.departmentId || filters.tagId || filters.serviceId || filters.serviceType);
  const status = filters.status ? ` ${conversationStatusLabels[filters.status].toLowerCase()}` : '';
  if (filtered) return `Nenhuma conversa${status} com estes filtros.`;
  if (filters.status && filters.status !== 'open') return `Nenhuma conversa${status} nesta lista.`;
  if (filters.tab === 'mine') return 'Assuma uma conversa em Não atribuídos para ela aparecer aqui.';
  if (filters.tab === 'unassigned') return 'Todas as conversas têm alguém atendendo.';
  return 'As conversas de WhatsApp e Telegram aparecem aqui assim que chegam.';
}

/** The empty list of a tab, under its status and filters. */
export function InboxEmpty({ filters }: { filters: InboxFilters }) {
  return (
    <div className="px-4 py-10 text-center" data-testid="inbox-empty">
      <p className="text-sm font-medium text-fg">{emptyTitles[filters.tab]}</p>
      <p className="mt-1 text-xs text-fg-muted">{emptyHint(filters)}</p>
    </div>
  );
}
