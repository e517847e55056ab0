/**
 * Profile pictures of WhatsApp chats (a person or a group), copied into the bucket for a chat that
 * becomes a new contact, as Telegram's adapter does: Baileys' `profilePictureUrl(jid, 'image')`
 * names WhatsApp's CDN copy, which is fetched and stored under the account
 * (`avatarObjectKey`). The picture is a nicety: none set, hidden by the person's privacy settings
 * (WhatsApp answers 401 or 404), a timeout or a failed download all answer null, and the message is
 * stored anyway.
 */
import { avatarObjectKey } from '#db/keys.ts';
import type { Ports } from '#domain/ports.ts';
import type { WhatsAppSocket } from './socket.ts';

export interface AvatarTarget {
  ports: Pick<Ports, 'storage'>;
  accountId: string;
  serviceId: string;
}

/** How a picture's bytes are fetched from WhatsApp's CDN; tests give their own. */
export type PictureFetch = (url: string) => Promise<{ bytes: Uint8Array; mimetype: string } | null>;

/** How long WhatsApp may take to name the picture, and the CDN to hand it over. */
const timeoutMs = 10_000;

export const fetchPicture: PictureFetch = async (url) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) return null;
  const mimetype = res.headers.get('content-type')?.split(';')[0]?.trim() || 'image/jpeg';
  return { bytes: new Uint8Array(await res.arrayBuffer()), mimetype: mimetype.startsWith('image/') ? mimetype : 'image/jpeg' };
};

/** Copies the chat's current picture into the bucket; answers its key, or null when there is none to have. */
export async function copyProfilePicture(
  target: AvatarTarget,
  socket: Pick<WhatsAppSocket, 'profilePictureUrl'>,
  jid: string,
  download: PictureFetch = fetchPicture,
): Promise<string | null> {
  try {
    const url = await socket.profilePictureUrl(jid, 'image', timeoutMs);
    if (!url) return null;
    const picture = await download(url);
    if (!picture?.bytes.length) return null;
    const key = avatarObjectKey(target.accountId, target.serviceId, jid);
    await target.ports.storage.put(key, picture.bytes, picture.mimetype);
    return key;
  } catch (error) {
    // 'item-not-found' (no picture) and 'not-authorized' (privacy) are the usual answers.
    console.warn(`[whatsapp] no profile picture for ${jid}:`, (error as Error).message);
    return null;
  }
}
