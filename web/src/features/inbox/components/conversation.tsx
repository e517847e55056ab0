import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowLeft, Archive, WifiOff } from 'lucide-react';
import { archivedByLimitText, type Contact } from '#contracts/contacts.ts';
import { serviceTypeLabels, type Service } from '#contracts/services.ts';
import { Badge } from '#web/components/ui/misc.tsx';
import { Button, ButtonLink } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth.ts';
import { dayKey, formatDayLabel, formatPresence } from '#web/lib/format.ts';
import { flattenMessages, useMessages, type ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { useMarkContactRead } from '#web/features/inbox/api/mark-contact-read.ts';
import { sendOutgoing, useRetryMessage } from '#web/features/inbox/api/send-message.ts';
import { Avatar } from './avatar.tsx';
import { ChannelIcon } from './channel-icon.tsx';
import { Composer, type ComposerSend } from './composer.tsx';
import { MessageBubble } from './message-bubble.tsx';

type Row = { kind: 'more' } | { kind: 'message'; message: ChatMessage; day: string | null };

function Notice({ icon, title, text, action, to }: { icon: React.ReactNode; title: string; text: string; action: string; to: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-border bg-surface px-4 py-3" role="status">
      <span className="flex size-9 items-center justify-center rounded-full bg-warning-soft text-warning">{icon}</span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-fg">{title}</p>
        <p className="text-xs text-fg-muted">{text}</p>
      </div>
      <ButtonLink to={to} variant="outline" size="sm">
        {action}
      </ButtonLink>
    </div>
  );
}

/** The right pane: header, messages (10 a page, newest first, virtualised) and the composer or a notice. */
export function Conversation({ contact, service }: { contact: Contact; service: Service | undefined }) {
  const client = useQueryClient();
  const { user } = useSession();
  const isGroup = contact.type === 'group';
  const messages = useMessages(contact.id, isGroup);
  const retry = useRetryMessage();
  const markRead = useMarkContactRead();
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const list = useMemo(() => flattenMessages(messages.data), [messages.data]);
  const rows = useMemo<Row[]>(() => {
    const out: Row[] = messages.hasNextPage ? [{ kind: 'more' }] : [];
    let previous = '';
    for (const message of list) {
      const key = dayKey(message.timestamp);
      out.push({ kind: 'message', message, day: key !== previous ? formatDayLabel(message.timestamp) : null });
      previous = key;
    }
    return out;
  }, [list, messages.hasNextPage]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'more' ? 56 : 76),
    getItemKey: (i) => {
      const row = rows[i]!;
      return row.kind === 'more' ? 'more' : row.message.id;
    },
    overscan: 8,
    initialRect: { width: 800, height: 600 },
  });

  // Keep the reading position when older messages are added above; follow new ones at the bottom.
  // The position is anchored on the first message in view: after older ones are added (and the
  // 'Carregar mais' row may go), that message is put back exactly where it was; rows measured
  // later above it are compensated by the virtualizer itself.
  const anchor = useRef<{ firstId: string | undefined; lastId: string | undefined; atBottom: boolean; viewId: string | undefined; viewDelta: number }>({
    firstId: undefined,
    lastId: undefined,
    atBottom: true,
    viewId: undefined,
    viewDelta: 0,
  });
  /** The first message bubble in view and its distance from the top of the scroll area. */
  const bubbleInView = () => {
    const el = scrollRef.current;
    if (!el) return null;
    const top = el.getBoundingClientRect().top;
    for (const bubble of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
      const rect = bubble.getBoundingClientRect();
      if (rect.bottom > top) return { id: bubble.dataset.messageId!, delta: rect.top - top };
    }
    return null;
  };
  const rememberView = () => {
    const seen = bubbleInView();
    anchor.current.viewId = seen?.id;
    anchor.current.viewDelta = seen?.delta ?? 0;
  };
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const firstId = list[0]?.id;
    const lastId = list.at(-1)?.id;
    const prev = anchor.current;
    if (prev.firstId && firstId !== prev.firstId && lastId === prev.lastId && prev.viewId) {
      // Put the bubble that was in view back where it was (the rows above it changed, and so may
      // its own day separator).
      const index = rows.findIndex((r) => r.kind === 'message' && r.message.id === prev.viewId);
      const start = index >= 0 ? virtualizer.measurementsCache[index]?.start : undefined;
      if (start !== undefined) el.scrollTop = start - prev.viewDelta;
      const restore = () => {
        const bubble = el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(prev.viewId!)}"]`);
        if (bubble) el.scrollTop += bubble.getBoundingClientRect().top - el.getBoundingClientRect().top - prev.viewDelta;
      };
      // Rows above are measured over the next frames; follow them until they settle.
      restore();
      requestAnimationFrame(restore);
      for (const ms of [50, 150, 300]) setTimeout(restore, ms);
    } else if (lastId !== prev.lastId && (prev.atBottom || list.at(-1)?.isFromMe || !prev.lastId)) {
      const toBottom = () => {
        el.scrollTop = el.scrollHeight;
      };
      toBottom();
      requestAnimationFrame(toBottom);
      setTimeout(toBottom, 60);
    }
    anchor.current = { ...anchor.current, firstId, lastId };
    rememberView();
  }, [list, rows, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    anchor.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    rememberView();
  };

  // Opening a conversation (or a new message while it is open) clears its unread count.
  const lastRead = useRef('');
  useEffect(() => {
    const key = `${contact.id}:${contact.lastMessage?.id ?? ''}`;
    if (contact.unread > 0 && lastRead.current !== key) {
      lastRead.current = key;
      markRead.mutate(contact.id);
    }
  }, [contact.id, contact.unread, contact.lastMessage?.id, markRead]);

  useEffect(() => setReplyTo(null), [contact.id]);
  useEffect(() => {
    if (!replyTo) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) setReplyTo(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [replyTo]);

  const onRetry = useCallback(
    (message: ChatMessage) => {
      if (message.local?.retry) message.local.retry();
      else retry.mutate({ id: message.id, contactId: message.contactId });
    },
    [retry],
  );

  const onSend = async ({ text, files, voice }: ComposerSend) => {
    const base = { contactId: contact.id, serviceId: contact.serviceId, user };
    let reply = replyTo;
    setReplyTo(null);
    anchor.current.atBottom = true;
    if (voice) {
      const ext = voice.mimetype.includes('mp4') ? 'm4a' : 'webm';
      await sendOutgoing(client, { ...base, text: '', replyTo: reply, file: { blob: voice.blob, name: `audio-${Date.now()}.${ext}`, mimetype: voice.mimetype, isPtt: true } });
      return;
    }
    // Files first, each with its caption, then the typed text; one after another, in order.
    for (const f of files) {
      await sendOutgoing(client, { ...base, text: f.caption.trim(), replyTo: reply, file: { blob: f.file, name: f.file.name, mimetype: f.mimetype } });
      reply = null;
    }
    if (text) await sendOutgoing(client, { ...base, text, replyTo: reply });
  };

  const presence = formatPresence(contact.isOnline, contact.lastSeenAt);
  const connected = service?.status === 'connected';
  const archived = !!contact.archivedAt;

  return (
    <section className="flex h-full min-h-0 flex-col bg-bg-subtle" aria-label={`Conversa com ${contact.name}`}>
      <header className="flex h-16 shrink-0 items-center gap-3 border-b border-border bg-surface px-3 sm:px-4">
        <ButtonLink to="/inbox" variant="ghost" size="icon" className="lg:hidden" aria-label="Voltar para as conversas" state={{ list: true }}>
          <ArrowLeft className="size-5" aria-hidden="true" />
        </ButtonLink>
        <Avatar name={contact.name} url={contact.avatar?.url ?? contact.avatarUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="flex items-center gap-2 truncate text-base font-semibold text-fg">
            <span className="truncate">{contact.name}</span>
            {archived ? <Badge tone="warning">Arquivado</Badge> : null}
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
      </header>

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
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => {
                          rememberView();
                          void messages.fetchNextPage();
                        }}
                        loading={messages.isFetchingNextPage}
                      >
                        Carregar mais mensagens
                      </Button>
                    </div>
                  ) : (
                    <>
                      {row.day ? (
                        <div className="my-2 flex justify-center" role="separator" aria-label={row.day}>
                          <span className="rounded-full bg-surface px-3 py-1 text-xs font-medium text-fg-muted shadow-sm">{row.day}</span>
                        </div>
                      ) : null}
                      <MessageBubble message={row.message} onReply={setReplyTo} onRetry={onRetry} retrying={retry.isPending} />
                    </>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>

      {archived ? (
        <Notice
          icon={<Archive className="size-4" aria-hidden="true" />}
          title="Contato arquivado"
          text={contact.archivedReason === 'limit' ? archivedByLimitText : 'Desarquive o contato para voltar a conversar.'}
          action="Ver contatos"
          to="/contacts"
        />
      ) : !connected ? (
        <Notice
          icon={<WifiOff className="size-4" aria-hidden="true" />}
          title="Conexão desconectada"
          text="Conecte novamente a conexão deste contato para enviar mensagens."
          action="Ver conexões"
          to="/services"
        />
      ) : (
        <Composer replyTo={replyTo} onClearReply={() => setReplyTo(null)} onSend={(p) => void onSend(p)} />
      )}
    </section>
  );
}
