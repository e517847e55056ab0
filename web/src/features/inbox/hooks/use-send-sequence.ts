import { useQueryClient } from '@tanstack/react-query';
import type { Contact } from '#contracts/contacts.ts';
import { useSession } from '#web/lib/auth.ts';
import type { ChatMessage } from '#web/features/inbox/api/get-messages.ts';
import { sendOutgoing } from '#web/features/inbox/api/send-message.ts';
import type { ComposerSend } from '#web/features/inbox/components/composer.tsx';

/**
 * What the composer sends, in order: an internal note alone (text only, never to the customer); a
 * voice note alone; otherwise the files one after another, each with its caption, then the typed
 * text. The reply goes with the first message only.
 */
export function useSendSequence(contact: Pick<Contact, 'id' | 'serviceId'>) {
  const client = useQueryClient();
  const { user } = useSession();
  return async ({ text, files, voice, note }: ComposerSend, replyTo: ChatMessage | null): Promise<void> => {
    const base = { contactId: contact.id, serviceId: contact.serviceId, user };
    if (note) {
      if (text) await sendOutgoing(client, { ...base, kind: 'note', text });
      return;
    }
    let reply = replyTo;
    if (voice) {
      const ext = voice.mimetype.includes('ogg') ? 'ogg' : 'webm';
      await sendOutgoing(client, {
        ...base,
        text: '',
        replyTo: reply,
        file: { blob: voice.blob, name: `audio-${Date.now()}.${ext}`, mimetype: voice.mimetype, isPtt: true },
      });
      return;
    }
    for (const f of files) {
      await sendOutgoing(client, { ...base, text: f.caption.trim(), replyTo: reply, file: { blob: f.file, name: f.file.name, mimetype: f.mimetype } });
      reply = null;
    }
    if (text) await sendOutgoing(client, { ...base, text, replyTo: reply });
  };
}
