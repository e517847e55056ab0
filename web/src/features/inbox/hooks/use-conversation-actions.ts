import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { Contact } from '#contracts/contacts.ts';
import { shownMessage } from '#contracts/errors.ts';
import { getContact } from '#web/api/get-contact.ts';
import { contactKeys } from '#web/api/keys.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { reportError } from '#web/lib/errors.ts';
import { showToast } from '#web/lib/notify.ts';
import { applyChangedContact, useChangeConversation, type ConversationChange } from '#web/features/inbox/api/change-conversation.ts';

/** Who a transfer went to, as the server's line says it: 'Ana', 'Financeiro' or 'Ana (Financeiro)'. */
function transferTarget(contact: Pick<Contact, 'user' | 'department'>, change: { userId: string | null; departmentId: string | null }): string {
  const user = change.userId ? contact.user?.name : undefined;
  const department = change.departmentId ? contact.department?.name : undefined;
  return user && department ? `${user} (${department})` : (user ?? department ?? '');
}

function doneText(change: ConversationChange, contact: Contact): string {
  switch (change.action) {
    case 'take':
      return 'Você assumiu a conversa';
    case 'release':
      return 'Conversa liberada.';
    case 'transfer':
      return `Conversa transferida para ${transferTarget(contact, change.payload)}.`;
    case 'status':
      return { open: 'Conversa reaberta', pending: 'Conversa marcada como pendente', resolved: 'Conversa resolvida' }[change.status];
  }
}

/** Still visible to me after the change? The server decides (GET answers 404 once it is not). */
async function stillVisible(id: string): Promise<Contact | null> {
  try {
    return await getContact(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Runs a change on the open conversation: the answer goes into the caches. A member who handed it to
 * someone they cannot see it with goes back to the list. A change the server answers 404 to is one on
 * a conversation the caller no longer sees (a member beaten to a take by someone else: the server says
 * nothing about a conversation hidden from them, not even who has it), so it says so and goes back to
 * the list, which is read again. A take that someone else won first on a conversation the caller
 * still sees (an admin, or a member with 'membersSeeAll') answers 409: it says who has it and reads
 * the conversation again. Answers whether it succeeded. `onInvalid` gets the fields' messages of a
 * 400 (the transfer dialog shows them on its fields).
 */
export function useConversationActions(contact: Contact) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { user } = useSession();
  const mutation = useChangeConversation();

  /** Back to the list (its filters kept), which is read again: the conversation is no longer one I see. */
  const leave = () => {
    navigate({ pathname: '/inbox', search }, { state: { list: true } });
    void client.invalidateQueries({ queryKey: contactKeys.inboxes() });
  };

  const run = async (change: ConversationChange, onInvalid?: (details: { path: string; message: string }[]) => void): Promise<boolean> => {
    try {
      const next = await mutation.mutateAsync({ id: contact.id, change });
      const handedOver = change.action === 'transfer' || change.action === 'release';
      if (handedOver && !user?.isAdmin && !(await stillVisible(next.id))) {
        leave();
        showToast({ tone: 'success', title: doneText(change, next), message: 'Ela saiu da sua lista de conversas.' });
        return true;
      }
      showToast({ tone: 'success', title: doneText(change, next) });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        showToast({ tone: 'error', title: 'Esta conversa não está mais disponível para você', message: 'Outra pessoa pode tê-la assumido.', duration: 8000 });
        leave();
        return false;
      }
      if (error instanceof ApiError && error.status === 409) {
        const who = error.details.find((d) => d.path === 'userId')?.message;
        showToast({ tone: 'error', title: shownMessage(error.message), message: who, duration: 8000 });
        // Read again: shown with who has it now, or (a member who no longer sees it) back to the list.
        const now = await stillVisible(contact.id).catch(() => contact);
        if (now) applyChangedContact(client, now);
        else leave();
        return false;
      }
      if (onInvalid && error instanceof ApiError && error.status === 400 && error.details.length) {
        onInvalid(error.details);
        return false;
      }
      reportError(error);
      return false;
    }
  };

  return { run, pending: mutation.isPending };
}
