/** The Bot API's error answers, as the rest of the product understands them. */
import { GrammyError, HttpError } from 'grammy';
import { ChannelSendError, ChannelUnreachable, CredentialsRejected } from '#domain/channels/port.ts';

/** 401 Unauthorized (bad token) and 404 Not Found (no such bot) both mean the token is wrong. */
export function isTokenRejection(error: unknown): boolean {
  return error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
}

/** For starting and stopping: a rejected token, or the channel out of reach. */
export function controlError(error: unknown): Error {
  if (isTokenRejection(error)) return new CredentialsRejected((error as GrammyError).description);
  if (error instanceof GrammyError) return new ChannelUnreachable(`Bot API ${error.method}: ${error.error_code} ${error.description}`, { cause: error });
  if (error instanceof HttpError) return new ChannelUnreachable(`Bot API unreachable: ${error.message}`, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

/** For sends: the Bot API's refusal as ack -2 with a pt-BR reason, or a wait it asks for. */
export function sendError(error: unknown): ChannelSendError {
  if (error instanceof GrammyError) {
    const description = error.description.toLowerCase();
    const retryAfter = error.parameters?.retry_after;
    if (error.error_code === 429 || retryAfter !== undefined) {
      const seconds = retryAfter ?? 5;
      return new ChannelSendError(`O Telegram limitou os envios; tente de novo em ${seconds} s`, { retryAfterSeconds: seconds });
    }
    if (isTokenRejection(error)) return new ChannelSendError('O Telegram recusou o token do bot', { permanent: true });
    if (error.error_code === 403 && description.includes('blocked')) {
      return new ChannelSendError('O cliente bloqueou o bot no Telegram', { permanent: true });
    }
    if (error.error_code === 403) return new ChannelSendError('O bot não pode enviar mensagens para esta conversa no Telegram', { permanent: true });
    if (description.includes('chat not found')) {
      return new ChannelSendError('Conversa não encontrada no Telegram: o cliente precisa iniciar a conversa com o bot', { permanent: true });
    }
    return new ChannelSendError(`O Telegram recusou a mensagem (${error.description})`, { permanent: true });
  }
  if (error instanceof HttpError) return new ChannelSendError('Não foi possível falar com o Telegram. Tente de novo.');
  return new ChannelSendError('Falha ao enviar a mensagem. Tente de novo.');
}
