import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from './webhook-signature.ts';

const secret = 'whsec_test_secret';
const body = '{"id":"01J","type":"message.created","data":{"text":"Olá, tudo bem?"}}';
const t = 1_764_000_000;

describe('webhook signature', () => {
  it('is the HMAC-SHA256 of "<t>.<body>" in lowercase hex, after t=', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signWebhookPayload(secret, t, body)).toBe(`t=${t},v1=${expected}`);
    expect(webhookSignatureHeader).toBe('Conversa-Signature');
  });

  it('matches a known vector (so a change of encoding cannot pass unnoticed)', () => {
    // python3 -c 'import hmac,hashlib;print(hmac.new(b"k",b"1.{}",hashlib.sha256).hexdigest())'
    expect(signWebhookPayload('k', 1, '{}')).toBe('t=1,v1=3dd49b2593d0f9a349e9e71c4bde3e2b862c2be4003fe9b4ba81332029310158');
  });

  it('verifies its own signature within the tolerance, either side of now', () => {
    const header = signWebhookPayload(secret, t, body);
    expect(verifyWebhookSignature(secret, header, body, t)).toBe(true);
    expect(verifyWebhookSignature(secret, header, body, t + 300)).toBe(true);
    expect(verifyWebhookSignature(secret, header, body, t - 300)).toBe(true);
    expect(verifyWebhookSignature(secret, header, body, t + 301)).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, t - 301)).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, t + 1000, 1000)).toBe(true);
  });

  it('refuses another body, another secret, another timestamp', () => {
    const header = signWebhookPayload(secret, t, body);
    expect(verifyWebhookSignature(secret, header, `${body} `, t)).toBe(false);
    expect(verifyWebhookSignature('whsec_other', header, body, t)).toBe(false);
    expect(verifyWebhookSignature(secret, header.replace(`t=${t}`, `t=${t + 1}`), body, t)).toBe(false);
  });

  it('accepts any one of several v1 entries (secret rotation)', () => {
    const oldHeader = signWebhookPayload('whsec_old', t, body);
    const newHeader = signWebhookPayload(secret, t, body);
    const both = `${oldHeader},${newHeader.replace(`t=${t},`, '')}`;
    expect(verifyWebhookSignature(secret, both, body, t)).toBe(true);
    expect(verifyWebhookSignature('whsec_old', both, body, t)).toBe(true);
    expect(verifyWebhookSignature('whsec_third', both, body, t)).toBe(false);
  });

  it('refuses malformed headers without throwing', () => {
    const good = signWebhookPayload(secret, t, body);
    const v1 = good.split('v1=')[1]!;
    for (const header of [
      undefined,
      '',
      'garbage',
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},v0=${v1}`,
      `t=${t},v1=${v1.toUpperCase()}`,
      `t=${t},v1=${v1.slice(1)}`,
      `t=${t},t=${t},v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=-${t},v1=${v1}`,
    ]) {
      expect(verifyWebhookSignature(secret, header, body, t), String(header)).toBe(false);
    }
  });

  it('tolerates spaces around entries', () => {
    const good = signWebhookPayload(secret, t, body);
    expect(verifyWebhookSignature(secret, good.replace(',', ', '), body, t)).toBe(true);
  });

  it('refuses a timestamp that is not whole unix seconds when signing', () => {
    expect(() => signWebhookPayload(secret, 1.5, body)).toThrow();
    expect(() => signWebhookPayload(secret, -1, body)).toThrow();
  });
});
