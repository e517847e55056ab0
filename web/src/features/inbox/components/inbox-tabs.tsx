import { useRef, type KeyboardEvent } from 'react';
import { inboxTabLabels, inboxTabs, type ConversationStatus, type InboxCounts, type InboxTab } from '#contracts/conversation-labels.ts';
import { cn } from '#web/lib/cn.ts';

/** The id of a tab's button, which names the list's tabpanel. */
export const inboxTabId = (tab: InboxTab) => `inbox-tab-${tab}`;
export const inboxTabPanelId = 'inbox-tabpanel';

export interface InboxTabsProps {
  tab: InboxTab;
  /** The status the list shows ('' for all): each badge counts that status in its tab. */
  status: '' | ConversationStatus;
  counts: InboxCounts | undefined;
  onChange: (tab: InboxTab) => void;
}

/**
 * 'Meus', 'Não atribuídos', 'Todos' as WAI-ARIA tabs, the selected one in the brand's colours: one tab stop (roving tabindex); Left and
 * Right (wrapping), Home and End move the focus and select at once, since the list behind them is
 * already loaded or cheap to load. Each tab carries its count as a badge and in its name.
 */
export function InboxTabs({ tab, status, counts, onChange }: InboxTabsProps) {
  const refs = useRef(new Map<InboxTab, HTMLButtonElement>());

  // From the tab that has the focus, not the selected one: keys pressed in quick succession arrive
  // before the new selection has rendered (the address changes in a transition).
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, from: InboxTab) => {
    const at = inboxTabs.indexOf(from);
    const last = inboxTabs.length - 1;
    const next = { ArrowRight: at === last ? 0 : at + 1, ArrowLeft: at === 0 ? last : at - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = inboxTabs[next]!;
    onChange(target);
    refs.current.get(target)?.focus();
  };

  return (
    <div role="tablist" aria-label="Listas de conversas" className="flex gap-0.5 rounded-lg bg-surface-2 p-0.5">
      {inboxTabs.map((t) => {
        const selected = t === tab;
        const count = counts?.[t][status || 'total'];
        return (
          <button
            key={t}
            ref={(el) => {
              if (el) refs.current.set(t, el);
              else refs.current.delete(t);
            }}
            type="button"
            role="tab"
            id={inboxTabId(t)}
            aria-selected={selected}
            aria-controls={inboxTabPanelId}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t)}
            onKeyDown={(event) => onKeyDown(event, t)}
            className={cn(
              'flex min-w-0 flex-auto items-center justify-center gap-1.5 rounded-md border px-2 py-[5px] whitespace-nowrap text-xs font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
              // The selected tab is drawn in the brand's colours with a brand border (at least 4.9:1
              // against the track in both themes), so it does not depend on a shade of grey.
              selected ? 'border-brand bg-brand-soft text-brand-soft-fg shadow-sm' : 'border-transparent text-fg-muted hover:bg-surface hover:text-fg',
            )}
            data-testid={`inbox-tab-${t}`}
          >
            {/* Drawn as the name and a badge; read as one phrase, 'Meus, 3 conversas'. */}
            <span className="truncate" aria-hidden={count === undefined ? undefined : true}>
              {inboxTabLabels[t]}
            </span>
            {count === undefined ? null : (
              <>
                <span
                  className={cn(
                    'flex h-[18px] min-w-[18px] shrink-0 items-center justify-center rounded-full px-1 text-[11px] font-semibold tabular-nums',
                    selected ? 'bg-brand text-brand-fg' : 'bg-surface text-fg-muted',
                  )}
                  aria-hidden="true"
                >
                  {count > 999 ? '999+' : count}
                </span>
                <span className="sr-only">{`${inboxTabLabels[t]}, ${count} ${count === 1 ? 'conversa' : 'conversas'}`}</span>
              </>
            )}
          </button>
        );
      })}
    </div>
  );
}
