import { describe, expect, it } from 'vitest';
import { ChannelSendError } from '#domain/channels/port.ts';
import { backoffSeconds, cloudErrorMeaning, cloudSendError, failedStatusReason, knownCloudErrorCodes, maxBackoffSeconds } from './errors.ts';

describe('cloudErrorMeaning', () => {
  it('retries the rate limits and Meta’s passing failures with a backoff, and nothing else', () => {
    const retried = knownCloudErrorCodes.filter((code) => cloudErrorMeaning(code).retry === 'backoff').sort((a, b) => a - b);
    expect(retried).toEqual([80007, 130429, 131000, 131056]);
  });

  it('treats the window, recipient, template, token, spam and engagement errors as final', () => {
    for (const code of [131047, 131026, 131051, 132000, 132001, 131053, 190, 100, 131048, 131049]) {
      expect(cloudErrorMeaning(code).retry, String(code)).toBe('final');
    }
    expect(cloudErrorMeaning(131047).topic).toBe('window');
    expect(cloudErrorMeaning(190).topic).toBe('credentials');
  });

  it('gives every known code its own pt-BR text and an unknown code a generic one with its number', () => {
    const texts = new Set(knownCloudErrorCodes.map((code) => cloudErrorMeaning(code).text));
    expect(texts.size).toBe(knownCloudErrorCodes.length);
    expect(cloudErrorMeaning(131047).text).toMatch(/24 horas.*modelo de mensagem aprovado/);
    expect(cloudErrorMeaning(999999)).toMatchObject({ retry: 'final', text: 'O WhatsApp recusou esta mensagem (erro 999999). Tente de novo mais tarde.' });
  });
});

describe('backoffSeconds', () => {
  it('doubles the code’s base delay at each try, up to the cap', () => {
    const pair = cloudErrorMeaning(131056);
    expect([1, 2, 3].map((attempt) => backoffSeconds(pair, attempt))).toEqual([6, 12, 24]);
    expect(backoffSeconds(cloudErrorMeaning(80007), 20)).toBe(maxBackoffSeconds);
    expect(backoffSeconds(cloudErrorMeaning(131047), 1)).toBeNull();
  });
});

describe('cloudSendError', () => {
  it('asks to come back later for a rate limit and marks a final error permanent', () => {
    const rate = cloudSendError({ code: 130429 }, 2);
    expect(rate).toBeInstanceOf(ChannelSendError);
    expect(rate.options).toEqual({ retryAfterSeconds: 4 });
    const window = cloudSendError({ code: 131047 });
    expect(window.options).toEqual({ permanent: true });
    expect(window.reason).toBe(cloudErrorMeaning(131047).text);
  });
});

describe('failedStatusReason', () => {
  it('explains the first error of a failed status, or says it was not delivered', () => {
    expect(failedStatusReason([{ code: 131049 }, { code: 131026 }])).toBe(cloudErrorMeaning(131049).text);
    expect(failedStatusReason(undefined)).toBe('O WhatsApp não entregou esta mensagem. Tente de novo mais tarde.');
  });
});
