/**
 * What counts as a score after the rating question (docs/conversation-lifecycle.md#rating): the
 * whole message is one digit from 1 to 5, alone or as a keycap emoji ('5️⃣'), optionally with
 * spaces or a final '.' or '!'. Anything else ('5 estrelas, obrigado', 'oi') is not a score and
 * starts a conversation as usual: the question never holds the customer's next message.
 */
export function parseScore(text: string): number | null {
  const plain = text
    .trim()
    .replace(/\uFE0F?\u20E3/g, '')
    .replace(/[.!]+$/, '')
    .trim();
  return /^[1-5]$/.test(plain) ? Number(plain) : null;
}
