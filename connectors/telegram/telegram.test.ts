import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { ChannelUnreachable, CredentialsRejected } from '#domain/channels/port.ts';
import { controlError, sendError } from './errors.ts';
import { channelMessageIdOf, telegramMessageIdOf } from './inbound.ts';
import { telegramApiRoot, telegramMode, telegramWebhookUrl } from './config.ts';

const apiError = (error_code: number, description: string, parameters = {}) =>
  new GrammyError(`Call failed`, { ok: false, error_code, description, parameters }, 'sendMessage', {});

describe('Bot API error answers', () => {
  it('a flood wait asks the dispatcher to come back after retry_after', () => {
    const error = sendError(apiError(429, 'Too Many Requests: retry after 7', { retry_after: 7 }));
    expect(error.options).toEqual({ retryAfterSeconds: 7 });
    expect(error.reason).toContain('7 s');
  });

  it('a blocked user and an unknown chat are permanent refusals with pt-BR reasons', () => {
    expect(sendError(apiError(403, 'Forbidden: bot was blocked by the user'))).toMatchObject({
      reason: 'O cliente bloqueou o bot no Telegram',
      options: { permanent: true },
    });
    expect(sendError(apiError(400, 'Bad Request: chat not found')).options.permanent).toBe(true);
    expect(sendError(apiError(400, 'Bad Request: chat not found')).reason).toMatch(/^Conversa não encontrada/);
  });

  it('a network failure is not permanent and asks for no wait', () => {
    const error = sendError(new HttpError('Network request for sendMessage failed', new Error('ECONNREFUSED')));
    expect(error.options).toEqual({});
  });

  it('401 and 404 mean the token is wrong; other failures mean Telegram is out of reach', () => {
    expect(controlError(apiError(401, 'Unauthorized'))).toBeInstanceOf(CredentialsRejected);
    expect(controlError(apiError(404, 'Not Found'))).toBeInstanceOf(CredentialsRejected);
    expect(controlError(apiError(500, 'Internal Server Error'))).toBeInstanceOf(ChannelUnreachable);
  });
});

describe('channel ids', () => {
  it('are unique per chat, since Telegram numbers messages per chat', () => {
    expect(channelMessageIdOf(-100123, 42)).toBe('-100123:42');
    expect(channelMessageIdOf(1, 42)).not.toBe(channelMessageIdOf(2, 42));
    expect(telegramMessageIdOf(channelMessageIdOf(-100123, 42))).toBe(42);
    expect(telegramMessageIdOf('not-telegram')).toBeNull();
  });
});

describe('configuration', () => {
  it('defaults to Telegram itself and to webhook mode, and builds the webhook URL from the public origin', () => {
    const saved = { ...process.env };
    try {
      delete process.env.TELEGRAM_API_ROOT;
      delete process.env.TELEGRAM_MODE;
      delete process.env.TELEGRAM_WEBHOOK_BASE_URL;
      expect(telegramApiRoot()).toBe('https://api.telegram.org');
      expect(telegramMode()).toBe('webhook');
      expect(telegramWebhookUrl('S1')).toBeNull();
      process.env.TELEGRAM_API_ROOT = 'http://127.0.0.1:9999/';
      process.env.TELEGRAM_MODE = 'polling';
      process.env.TELEGRAM_WEBHOOK_BASE_URL = 'https://api.example.com/';
      expect(telegramApiRoot()).toBe('http://127.0.0.1:9999');
      expect(telegramMode()).toBe('polling');
      expect(telegramWebhookUrl('S1')).toBe('https://api.example.com/api/webhooks/telegram/S1');
    } finally {
      process.env = saved;
    }
  });
});

describe('message time', () => {
  it("takes the moment of receipt, kept inside the message's own second", async () => {
    const { messageTime } = await import('./inbound.ts');
    expect(messageTime(1_700_000_000, 1_700_000_000_734)).toBe(new Date(1_700_000_000_734).toISOString());
    expect(messageTime(1_700_000_000, 1_700_000_050_000)).toBe(new Date(1_700_000_000_999).toISOString());
    expect(messageTime(1_700_000_000, 1_699_999_999_000)).toBe(new Date(1_700_000_000_000).toISOString());
  });
});
