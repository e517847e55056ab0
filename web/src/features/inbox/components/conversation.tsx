import { useCallback, useRef, useState } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import type { Service } from '#contracts/services.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useMessages, type ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { useCustomerWindow } from '#web/features/inbox/hooks/use-customer-window.ts';
import { useMarkReadWhenOpen } from '#web/features/inbox/hooks/use-mark-read-when-open.ts';
import { useMessageRetry } from '#web/features/inbox/hooks/use-message-retry.ts';
import { useMessageRows } from '#web/features/inbox/hooks/use-message-rows.ts';
import { useMessageVirtualizer } from '#web/features/inbox/hooks/use-message-virtualizer.ts';
import { useReplyTo } from '#web/features/inbox/hooks/use-reply-to.ts';
import { useScrollAnchor } from '#web/features/inbox/hooks/use-scroll-anchor.ts';
import { useSendSequence } from '#web/features/inbox/hooks/use-send-sequence.ts';
import { Composer, type ComposerSend } from './composer.tsx';
import { ConversationHeader } from './conversation-header.tsx';
import { ConversationNotice, WindowClosingLine } from './conversation-notice.tsx';
import { ForwardDialog } from './forward-dialog.tsx';
import { MessageBubble } from './message-bubble.tsx';
import { ScheduleDialog } from './schedule-dialog.tsx';
import { ScheduledStrip } from './scheduled-strip.tsx';
import { TemplateSendDialog } from './template-send-dialog.tsx';

/**
 * The right pane: header, messages (10 a page, newest first, virtualised) and the composer; when
 * nothing can reach the customer (or, on WhatsApp (API oficial), only templates could), a notice saying why
 * above a composer of internal notes only.
 */
export function Conversation({ contact, service }: { contact: Contact; service: Service | undefined }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const messages = useMessages(contact.id, contact.type === 'group');
  const { list, rows } = useMessageRows(messages.data, messages.hasNextPage);
  const virtualizer = useMessageVirtualizer(rows, scrollRef);
  const { onScroll, rememberView, followBottom } = useScrollAnchor(scrollRef, list, rows, virtualizer);
  const [replyTo, setReplyTo] = useReplyTo(contact.id);
  // 'Nota interna' mode: a note carries no reply, and 'Responder' goes back to writing to the customer.
  const [noteMode, setNoteMode] = useState(false);
  const [sendingTemplate, setSendingTemplate] = useState(false);
  const [forwarding, setForwarding] = useState<ChatMessage | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const { onRetry, retrying } = useMessageRetry();
  const send = useSendSequence(contact);
  useMarkReadWhenOpen(contact);

  const onSend = (payload: ComposerSend) => {
    setReplyTo(null);
    followBottom();
    void send(payload, payload.note ? null : replyTo);
  };
  const onNoteModeChange = (on: boolean) => {
    setNoteMode(on);
    if (on) setReplyTo(null);
  };
  // Stable, so the memoised bubbles do not re-render with the composer.
  const onReply = useCallback(
    (message: ChatMessage) => {
      setNoteMode(false);
      setReplyTo(message);
    },
    [setReplyTo],
  );
  const loadOlder = () => {
    rememberView();
    void messages.fetchNextPage();
  };
  // Only to the customer: internal notes are written whatever the connection or the contact's state.
  const reachable = !contact.archivedAt && service?.status === 'connected';
  // WhatsApp (API oficial): free text only within 24 hours of the customer's last message.
  const customer = useCustomerWindow(contact);
  const windowClosed = reachable && customer.status.kind === 'closed' ? customer.status : undefined;
  const canSend = reachable && !windowClosed;

  return (
    <section className="flex h-full min-h-0 flex-col bg-bg-subtle" aria-label={`Conversa com ${contact.name}`}>
      <ConversationHeader contact={contact} />

      <div ref={scrollRef} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto py-3" data-testid="messages-scroll">
        {messages.isPending ? (
          <div className="flex h-full items-center justify-center gap-2 text-sm text-fg-muted" role="status">
            <Spinner className="size-4 text-brand" /> Carregando...
          </div>
        ) : list.length === 0 ? (
          <p className="flex h-full items-center justify-center px-6 text-center text-sm text-fg-muted">Nenhuma mensagem ainda. Diga olá!</p>
        ) : (
          <div role="log" aria-label="Mensagens" aria-live="polite" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
                  className="pb-2"
                >
                  {row.kind === 'more' ? (
                    <div className="flex justify-center pb-2">
                      <Button variant="outline" size="sm" onClick={loadOlder} loading={messages.isFetchingNextPage}>
                        Carregar mais mensagens
                      </Button>
                    </div>
                  ) : (
                    <>
                      {row.day ? (
                        // biome-ignore lint/a11y/useSemanticElements: a day separator labelled with its visible date; an <hr> cannot hold the label
                        <div className="my-2 flex justify-center" role="separator" aria-label={row.day}>
                          <span className="rounded-full bg-surface px-3 py-1 text-xs font-medium text-fg-muted shadow-sm">{row.day}</span>
                        </div>
                      ) : null}
                      <MessageBubble
                        message={row.message}
                        onReply={canSend ? onReply : undefined}
                        onForward={setForwarding}
                        onRetry={onRetry}
                        retrying={retrying}
                      />
                    </>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>

      {canSend ? null : (
        <ConversationNotice contact={contact} window={windowClosed} onSendTemplate={windowClosed ? () => setSendingTemplate(true) : undefined} />
      )}
      {forwarding ? <ForwardDialog message={forwarding} onClose={() => setForwarding(null)} /> : null}
      {sendingTemplate && windowClosed ? <TemplateSendDialog contact={contact} onClose={() => setSendingTemplate(false)} onSent={followBottom} /> : null}
      {canSend && customer.closingSoon && customer.status.kind === 'open' ? <WindowClosingLine closesAt={customer.status.closesAt} /> : null}
      <ScheduledStrip contact={contact} />
      {scheduling ? <ScheduleDialog contact={contact} onClose={() => setScheduling(false)} /> : null}
      <Composer
        contact={contact}
        replyTo={canSend ? replyTo : null}
        onClearReply={() => setReplyTo(null)}
        onSend={onSend}
        noteMode={noteMode}
        onNoteModeChange={onNoteModeChange}
        notesOnly={!canSend}
        onSchedule={canSend ? () => setScheduling(true) : undefined}
      />
    </section>
  );
}
