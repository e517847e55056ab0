import { describe, expect, it } from 'vitest';
import { ChannelSendError } from '#domain/channels/port.ts';
import {
  backoffSeconds,
  cloudErrorMeaning,
  cloudSendError,
  failedStatusReason,
  knownCloudErrorCodes,
  maxBackoffSeconds,
  unreachableSendError,
  unreachableText,
} from './errors.ts';

/** No jitter: the middle of the ±20 % band. */
const middle = () => 0.5;

describe('cloudErrorMeaning', () => {
  it('retries the rate limits and Meta’s passing failures with a backoff, and nothing else', () => {
    const retried = knownCloudErrorCodes.filter((code) => cloudErrorMeaning(code).retry === 'backoff').sort((a, b) => a - b);
    expect(retried).toEqual([1, 2, 4, 80007, 130429, 131000, 131016, 131056]);
  });

  it('takes any answer with HTTP 5xx as a passing failure on Meta’s side, and an unknown code with 4xx as final', () => {
    expect(cloudErrorMeaning(987654, 502)).toMatchObject({ retry: 'backoff', topic: 'meta' });
    expect(cloudErrorMeaning(987654, 502).text).toContain('987654');
    expect(cloudErrorMeaning(100, 503).retry).toBe('backoff');
    expect(cloudErrorMeaning(987654, 400).retry).toBe('final');
    expect(cloudErrorMeaning(100, 400).retry).toBe('final');
    // A passing code keeps its own text under a 5xx.
    expect(cloudErrorMeaning(131016, 503).text).toBe(cloudErrorMeaning(131016).text);
  });

  it('treats the window, recipient, template, token, spam and engagement errors as final', () => {
    for (const code of [131047, 131026, 131051, 132000, 132001, 132012, 131053, 190, 100, 131048, 131049]) {
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
    expect([1, 2, 3].map((attempt) => backoffSeconds(pair, attempt, middle))).toEqual([6, 12, 24]);
    expect(backoffSeconds(cloudErrorMeaning(80007), 20, middle)).toBe(maxBackoffSeconds);
    expect(backoffSeconds(cloudErrorMeaning(131047), 1, middle)).toBeNull();
  });

  it('strays at most 20 % each way, and a later try still waits longer than any earlier one until the cap', () => {
    const rate = cloudErrorMeaning(130429);
    for (let attempt = 1; attempt < 8; attempt++) {
      const longestNow = backoffSeconds(rate, attempt, () => 0.999_999)!;
      const shortestNext = backoffSeconds(rate, attempt + 1, () => 0)!;
      expect(shortestNext, `try ${attempt + 1}`).toBeGreaterThan(longestNow);
    }
    expect(backoffSeconds(rate, 3, () => 0)).toBe(6);
    expect(backoffSeconds(rate, 3, () => 0.999_999)).toBe(10);
    // Capped after the jitter: never beyond the send queue's longest single wait.
    expect(backoffSeconds(rate, 30, () => 0.999_999)).toBe(maxBackoffSeconds);
    expect(backoffSeconds(rate, 30, () => 0)).toBeLessThanOrEqual(maxBackoffSeconds);
  });
});

describe('cloudSendError', () => {
  it('asks to come back later for a rate limit and marks a final error permanent', () => {
    const rate = cloudSendError({ code: 130429 }, 2, middle);
    expect(rate).toBeInstanceOf(ChannelSendError);
    expect(rate.options).toEqual({ retryAfterSeconds: 4 });
    // Meta's passing failures, however they come (4xx or 5xx with Meta's body).
    for (const [code, status] of [
      [1, 500],
      [2, 503],
      [131000, 500],
      [131016, 503],
      [4, 400],
      [80007, 400],
    ]) {
      expect(cloudSendError({ code: code!, status }, 1).options.retryAfterSeconds, String(code)).toBeGreaterThan(0);
    }
    const window = cloudSendError({ code: 131047 });
    expect(window.options).toEqual({ permanent: true });
    expect(window.reason).toBe(cloudErrorMeaning(131047).text);
  });
});

describe('unreachableSendError', () => {
  it('tries a send Graph never answered again, later at each hand-over', () => {
    const first = unreachableSendError(1, middle);
    expect(first).toMatchObject({ reason: unreachableText, options: { retryAfterSeconds: 5 } });
    expect(unreachableSendError(3, middle).options.retryAfterSeconds).toBe(20);
  });
});

describe('failedStatusReason', () => {
  it('explains the first error of a failed status, or says it was not delivered', () => {
    expect(failedStatusReason([{ code: 131049 }, { code: 131026 }])).toBe(cloudErrorMeaning(131049).text);
    expect(failedStatusReason(undefined)).toBe('O WhatsApp não entregou esta mensagem. Tente de novo mais tarde.');
  });

  it('does not promise a new try for a passing failure a status reports (nobody sends it again)', () => {
    const reason = failedStatusReason([{ code: 131000 }]);
    expect(reason).not.toBe(cloudErrorMeaning(131000).text);
    expect(reason).toBe('O WhatsApp não entregou esta mensagem por uma falha passageira (erro 131000). Reenvie em alguns minutos.');
  });
});
