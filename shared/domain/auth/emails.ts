/** The e-mails the product sends, in pt-BR. */
import type { Mail } from '../ports.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, paragraphs: string[], body: string, footer: string): string {
  return `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${body}<p style="color:#475569;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
}

const ignoreIfNotYou = 'Se você não fez este pedido, ignore este e-mail.';

function mail(to: string, subject: string, title: string, paragraphs: string[], code: string, link: { url: string; text: string; label: string }): Mail {
  return {
    to,
    subject,
    code,
    text: `${paragraphs.join('\n\n')}\n\nCódigo: ${code}\n\n${link.label}: ${link.url}\n\nSe você não fez este pedido, ignore este e-mail.`,
    html: layout(
      title,
      paragraphs,
      `<p style="font-size:28px;letter-spacing:6px;font-weight:700">${escapeHtml(code)}</p>
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p>
`,
      ignoreIfNotYou,
    ),
  };
}

export function verificationMail(to: string, name: string, code: string, appUrl: string, userId: string): Mail {
  const paragraphs = [`Olá, ${name}!`, 'Use o código abaixo para confirmar o seu e-mail no Conversa. Ele vale por 24 horas.'];
  const url = `${appUrl}/verify-email?userId=${encodeURIComponent(userId)}`;
  return mail(to, 'Confirme seu e-mail no Conversa', 'Confirme seu e-mail', paragraphs, code, { url, text: 'Confirmar e-mail', label: 'Confirme em' });
}

/** The code that moves a user to a new address, sent to that address (the old one keeps working until then). */
export function newAddressMail(to: string, name: string, code: string, appUrl: string, userId: string): Mail {
  const paragraphs = [
    `Olá, ${name}!`,
    'Use o código abaixo para confirmar este endereço como o novo e-mail da sua conta no Conversa. Ele vale por 24 horas.',
    'Até a confirmação, o e-mail anterior continua valendo.',
  ];
  const url = `${appUrl}/verify-email?userId=${encodeURIComponent(userId)}`;
  return mail(to, 'Confirme seu novo e-mail no Conversa', 'Confirme seu novo e-mail', paragraphs, code, {
    url,
    text: 'Confirmar e-mail',
    label: 'Confirme em',
  });
}

/** Tells the current address that a move to another one was asked for (nothing moves before that one is confirmed). */
export function addressChangeNotice(to: string, name: string, newAddress: string, accountName: string): Mail {
  const paragraphs = [
    `Olá, ${name}!`,
    `Recebemos um pedido para trocar o e-mail do seu usuário na conta ${accountName} do Conversa para ${newAddress}.`,
    'A troca só acontece quando o novo endereço for confirmado com o código que enviamos para ele. Até lá, nada muda.',
  ];
  const footer = 'Se você não pediu esta troca, avise o administrador da sua conta e troque a sua senha.';
  return {
    to,
    subject: 'Pedido de troca de e-mail no Conversa',
    text: `${paragraphs.join('\n\n')}\n\n${footer}`,
    html: layout('Pedido de troca de e-mail', paragraphs, '', footer),
  };
}

export function resetMail(to: string, code: string, appUrl: string): Mail {
  const paragraphs = [
    'Recebemos um pedido para redefinir a senha da sua conta no Conversa.',
    'Use o código abaixo ou o link em seguida. Ele vale por 30 minutos.',
  ];
  const url = `${appUrl}/reset-password?verifyCode=${code}&email=${encodeURIComponent(to)}`;
  return mail(to, 'Redefinição de senha do Conversa', 'Redefinir senha', paragraphs, code, { url, text: 'Redefinir senha', label: 'Redefina em' });
}
