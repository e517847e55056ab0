import { useId, useState, type Dispatch, type KeyboardEvent, type RefObject, type SetStateAction } from 'react';
import type { Contact } from '#contracts/contacts.ts';
import { fillVariables, variableValues, type QuickReply } from '#contracts/quick-replies.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/auth.ts';
import { showToast } from '#web/lib/notify.ts';
import { matchQuickReplies, useQuickReplyCatalogue } from '#web/features/inbox/api/get-quick-replies.ts';
import { renderQuickReply } from '#web/features/inbox/api/render-quick-reply.ts';

/** What the picker shows: the catalogue loading or failing, none in the account, none matching, or the matches. */
export type QuickReplyPickerState = 'loading' | 'error' | 'none' | 'empty' | 'list';

export type PickerContact = Pick<Contact, 'id' | 'name' | 'data'>;

/** What follows the slash while the whole text is one `/atalho` token (no spaces), else null. */
export function slashToken(text: string): string | null {
  const match = /^\/(\S*)$/.exec(text);
  return match ? (match[1] ?? '') : null;
}

/** What a failed server filling says; the text in the box (the browser's filling or the agent's edit) stays. */
export const quickReplyRenderFailed = {
  title: 'Não foi possível preencher a resposta rápida',
  message: 'O texto continua na caixa de mensagem: confira os dados do contato antes de enviar.',
};

/** The text a quick reply gives before the server's answer: the same filling, with the contact and me. */
export function localFill(reply: QuickReply, contact: PickerContact, agentName: string): string {
  const values = variableValues({
    contact: { name: contact.name, data: { phoneNumber: contact.data?.phoneNumber ?? null, email: contact.data?.email ?? null } },
    agent: { name: agentName },
  });
  return fillVariables(reply.text, values);
}

/**
 * The composer's `/atalho` picker: open while the text is a slash and a shortcut being typed, the
 * matches of the cached catalogue, the active option (ArrowUp/Down), picking (Enter, Tab, click)
 * and closing (Esc, leaving the box). A pick puts the text filled here at once and then the
 * server's rendering (POST /quick-replies/{id}/render, authoritative) unless it was edited meanwhile;
 * when that rendering fails, the text stays as it is and an error toast says to check it.
 */
export function useQuickReplyPicker({
  text,
  setText,
  contact,
  textarea,
}: {
  text: string;
  setText: Dispatch<SetStateAction<string>>;
  contact: PickerContact;
  textarea: RefObject<HTMLTextAreaElement | null>;
}) {
  const { user } = useSession();
  const listId = useId();
  const typed = slashToken(text);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [cursor, setCursor] = useState({ typed: '', index: 0 });
  const open = typed !== null && dismissed !== text;
  const catalogue = useQuickReplyCatalogue(open);
  const all = catalogue.data?.data ?? [];
  const options = open ? matchQuickReplies(all, typed) : [];
  const state: QuickReplyPickerState = catalogue.isError
    ? 'error'
    : !catalogue.data
      ? 'loading'
      : all.length === 0
        ? 'none'
        : options.length === 0
          ? 'empty'
          : 'list';
  const active = options.length ? Math.min(cursor.typed === typed ? cursor.index : 0, options.length - 1) : -1;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const setActive = (index: number) => setCursor({ typed: typed ?? '', index });

  const pick = (reply: QuickReply) => {
    const local = localFill(reply, contact, user?.name ?? '');
    setText(local);
    setDismissed(local);
    requestAnimationFrame(() => {
      const el = textarea.current;
      el?.focus();
      el?.setSelectionRange(local.length, local.length);
    });
    renderQuickReply(reply.id, contact.id).then(
      (answer) => setText((current) => (current === local ? answer.text : current)),
      (error: unknown) => {
        // An ended session has said so already (the sign-in page follows).
        if (error instanceof ApiError && error.sessionExpired) return;
        showToast({ tone: 'error', ...quickReplyRenderFailed, duration: 8000 });
      },
    );
  };

  /** Handles the picker's keys; true when the key was the picker's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count) setActive((active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey && count > 0)) {
      // Enter never sends a bare '/atalho' to the customer while the picker is open.
      event.preventDefault();
      const chosen = options[active];
      if (chosen) pick(chosen);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation(); // the picker's Esc does not also cancel the reply
      setDismissed(text);
      return true;
    }
    return false;
  };

  /** Leaving the box closes the picker, unless focus went into it (the admin's link). */
  const onBlur = (next: EventTarget | null, popup: HTMLElement | null) => {
    if (open && !(next instanceof Node && popup?.contains(next))) setDismissed(text);
  };

  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-haspopup': 'listbox' as const,
    'aria-controls': open && state === 'list' ? listId : undefined,
    'aria-activedescendant': open && active >= 0 ? optionId(active) : undefined,
  };

  /** What a reply will put in the box, shown in its option. */
  const preview = (reply: QuickReply) => localFill(reply, contact, user?.name ?? '');

  return {
    open,
    typed: typed ?? '',
    state,
    options,
    active,
    listId,
    optionId,
    setActive,
    pick,
    preview,
    onKeyDown,
    onBlur,
    inputProps,
    isAdmin: !!user?.isAdmin,
  };
}

export type QuickReplyPickerModel = ReturnType<typeof useQuickReplyPicker>;
