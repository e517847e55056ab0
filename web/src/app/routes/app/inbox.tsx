import { lazy, Suspense, useCallback, useMemo } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { MessagesSquare } from 'lucide-react';
import type { Contact } from '#contracts/contacts.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { usePageMeta } from '#web/lib/seo.ts';
import { useConnections } from '#web/api/get-connections.ts';
import { useContact } from '#web/api/get-contact.ts';
import { useSession } from '#web/lib/auth.ts';
import { inboxFiltersFromParams, inboxFiltersToParams } from '#web/features/inbox/api/inbox-filter-params.ts';
import type { InboxFilters } from '#web/features/inbox/api/get-inbox-contacts.ts';
import { ContactList } from '#web/features/inbox/components/contact-list.tsx';

const isWide = () => typeof window !== 'undefined' && window.matchMedia?.('(min-width: 1024px)').matches;

// The open conversation (the thread, the composer, its dialogs and forms) is a chunk of its own: on
// a phone /inbox is the list alone. It is fetched with this page when a conversation will show at
// once (a wide screen opens the first one; /inbox/{id}), else when one is opened.
const loadConversation = () => import('#web/features/inbox/components/conversation.tsx');
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })));
if (typeof window !== 'undefined' && (isWide() || window.location.pathname.startsWith('/inbox/'))) void loadConversation();

function ConversationLoading() {
  return (
    <div className="flex h-full items-center justify-center gap-2 text-sm text-fg-muted" role="status">
      <Spinner className="size-4 text-brand" /> Carregando...
    </div>
  );
}

/** /inbox and /inbox/{id}: the contact list and the open conversation (docs/product.md#screens). */
export default function InboxPage() {
  usePageMeta({ title: 'Chat', noindex: true });
  const { contactId } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  // The filters live in the address (?tab=mine&status=pending...), so a reload or a shared link keeps them.
  const [params, setParams] = useSearchParams();
  const me = useSession().user?.id ?? '';
  const paramsText = params.toString();
  const filters = useMemo(() => inboxFiltersFromParams(new URLSearchParams(paramsText), me), [paramsText, me]);
  const setFilters = useCallback((next: InboxFilters) => setParams(inboxFiltersToParams(next), { replace: true }), [setParams]);
  const connections = useConnections();
  const contact = useContact(contactId);
  const services = useMemo(() => connections.data?.data ?? [], [connections.data]);
  const service = services.find((s) => s.id === contact.data?.serviceId);

  // The first contact is opened when none is chosen (on wide screens, where both panes show;
  // on a phone the list is the page until a contact is tapped).
  const pickedList = (location.state as { list?: boolean } | null)?.list;
  // The address is read as it is now, not as this render saw it: a tab or filter chosen while the
  // list loaded has already replaced it, and the router's location can lag a render behind (its
  // updates are transitions), so the opened contact must not take the old filters back.
  const onFirstContact = useCallback(
    (first: Contact) => {
      if (contactId || pickedList || !isWide() || window.location.pathname !== '/inbox') return;
      navigate({ pathname: `/inbox/${first.id}`, search: window.location.search }, { replace: true });
    },
    [contactId, pickedList, navigate],
  );

  return (
    <div className="flex h-[calc(100dvh-3.5rem)] min-h-0 lg:h-dvh">
      <div className={cn('h-full w-full shrink-0 lg:block lg:w-[22rem]', contactId ? 'hidden' : 'block')}>
        <ContactList filters={filters} onFiltersChange={setFilters} selectedId={contactId} services={services} onFirstContact={onFirstContact} />
      </div>
      <div className={cn('h-full min-w-0 flex-1 lg:block', contactId ? 'block' : 'hidden')}>
        {contactId && contact.data ? (
          <Suspense fallback={<ConversationLoading />}>
            <Conversation key={contact.data.id} contact={contact.data} service={service} />
          </Suspense>
        ) : contactId && contact.isPending ? (
          <ConversationLoading />
        ) : (
          <div className="flex h-full flex-col items-center justify-center gap-3 bg-bg-subtle px-6 text-center">
            <span className="flex size-14 items-center justify-center rounded-2xl bg-brand-soft text-brand-soft-fg">
              <MessagesSquare className="size-7" aria-hidden="true" />
            </span>
            <p className="text-base font-semibold text-fg">Selecione uma conversa</p>
            <p className="max-w-sm text-sm text-fg-muted">As mensagens de WhatsApp e Telegram dos seus contatos aparecem aqui, ao vivo.</p>
          </div>
        )}
      </div>
    </div>
  );
}
