/** The e-mail that tells an account's owner its deletion is complete, in pt-BR. */
import type { Mail } from '../ports.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function accountDeletedMail(job: { ownerEmail: string; ownerName: string; accountName: string }): Mail {
  const paragraphs = [
    `Olá, ${job.ownerName}!`,
    `A exclusão da conta "${job.accountName}" no Conversa foi concluída.`,
    'Apagamos os usuários, as conexões, os contatos, as conversas e os arquivos da conta. As conexões foram desligadas e desconectadas dos aparelhos.',
    'Esta é a última mensagem que você recebe sobre esta conta.',
  ];
  return {
    to: job.ownerEmail,
    subject: 'Sua conta no Conversa foi excluída',
    text: paragraphs.join('\n\n'),
    html: `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<h1 style="font-size:20px">Conta excluída</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body></html>`,
  };
}
