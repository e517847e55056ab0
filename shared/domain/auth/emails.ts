/** The e-mails the product sends, in pt-BR. */
import type { Mail } from '../ports.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], code: string, link: string, linkText: string): string {
  return `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}
<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escape(code)}</p>
<p><a href="${escape(link)}">${escape(linkText)}</a></p>
<p style="color:#475569;font-size:12px">Se você não fez este pedido, ignore este e-mail.</p>
</body></html>`;
}

export function verificationMail(to: string, name: string, code: string, appUrl: string, userId: string): Mail {
  const link = `${appUrl}/verify-email?userId=${encodeURIComponent(userId)}`;
  const paragraphs = [
    `Olá, ${name}!`,
    'Use o código abaixo para confirmar o seu e-mail no Conversa. Ele vale por 24 horas.',
  ];
  return {
    to,
    subject: 'Confirme seu e-mail no Conversa',
    code,
    text: `${paragraphs.join('\n\n')}\n\nCódigo: ${code}\n\nConfirme em: ${link}\n\nSe você não fez este pedido, ignore este e-mail.`,
    html: layout('Confirme seu e-mail', paragraphs, code, link, 'Confirmar e-mail'),
  };
}

export function resetMail(to: string, code: string, appUrl: string): Mail {
  const link = `${appUrl}/reset-password?verifyCode=${code}&email=${encodeURIComponent(to)}`;
  const paragraphs = [
    'Recebemos um pedido para redefinir a senha da sua conta no Conversa.',
    'Use o código abaixo ou o link em seguida. Ele vale por 30 minutos.',
  ];
  return {
    to,
    subject: 'Redefinição de senha do Conversa',
    code,
    text: `${paragraphs.join('\n\n')}\n\nCódigo: ${code}\n\nRedefina em: ${link}\n\nSe você não fez este pedido, ignore este e-mail.`,
    html: layout('Redefinir senha', paragraphs, code, link, 'Redefinir senha'),
  };
}
