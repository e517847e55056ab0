/** The e-mail that tells an account's admins a webhook was switched off after a day of failures, in pt-BR. */
import type { Mail } from '../ports.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function webhookDisabledMail(input: { to: string; name: string; accountName: string; url: string; at: Date; appUrl: string }): Mail {
  const link = `${input.appUrl.replace(/\/$/, '')}/webhooks`;
  const paragraphs = [
    `Olá, ${input.name}!`,
    `Desativamos o webhook ${input.url} da conta "${input.accountName}" no Conversa: as entregas para esse endereço falharam por 24 horas seguidas.`,
    'Enquanto ele estiver desativado, nenhum evento é enviado para esse endereço. Corrija o destino, use "Enviar evento de teste" para conferir e depois clique em "Reativar".',
  ];
  return {
    to: input.to,
    subject: 'Um webhook da sua conta no Conversa foi desativado',
    text: `${paragraphs.join('\n\n')}\n\nWebhooks: ${link}`,
    html: `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<h1 style="font-size:20px">Webhook desativado</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">Abrir os webhooks</a></p>
</body></html>`,
  };
}
