import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, signatureHeader, verifyHandshake, verifySignature } from './signature.ts';

const secret = 'app-secret-123';
// Meta signs the bytes it sends, escapes included: the JSON below must not be re-serialised.
const raw = new TextEncoder().encode(
  '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"messages","value":{"text":"Ol\\u00e1 \u00e9"}}]}]}',
);
const good = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

describe('verifySignature', () => {
  it('accepts the HMAC-SHA256 of the raw bytes with the app secret', () => {
    expect(verifySignature(raw, good, secret)).toEqual({ ok: true });
    expect(verifySignature(raw, good.toUpperCase().replace('SHA256=', 'sha256='), secret)).toEqual({ ok: true });
  });

  it('refuses a missing or empty header', () => {
    expect(verifySignature(raw, undefined, secret)).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature(raw, '', secret)).toEqual({ ok: false, reason: 'missing' });
  });

  it('refuses malformed headers: another algorithm, no prefix, non-hex, wrong length', () => {
    const hex = good.slice('sha256='.length);
    for (const header of [`sha1=${hex}`, hex, `sha256=${hex.slice(0, 62)}zz`, `sha256=${hex.slice(0, 40)}`, `sha256=${hex}00`, 'sha256=']) {
      expect(verifySignature(raw, header, secret)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('refuses a signature made with another secret or over other bytes', () => {
    expect(verifySignature(raw, signBody(raw, 'other-secret'), secret)).toEqual({ ok: false, reason: 'mismatch' });
    const reserialised = new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(raw))));
    expect(reserialised).not.toEqual(raw);
    expect(verifySignature(reserialised, good, secret)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('finds the header whatever the case of its name', () => {
    expect(signatureHeader({ 'X-Hub-Signature-256': good })).toBe(good);
    expect(signatureHeader({ 'x-hub-signature-256': good })).toBe(good);
    expect(signatureHeader({ 'x-hub-signature': 'sha1=abc' })).toBeUndefined();
  });
});

describe('verifyHandshake', () => {
  const query = { 'hub.mode': 'subscribe', 'hub.verify_token': 'meu-token', 'hub.challenge': '1158201444' };

  it('answers the challenge for a subscription with our verify token', () => {
    expect(verifyHandshake(query, 'meu-token')).toBe('1158201444');
  });

  it('refuses another mode, another token, a missing token or challenge, and an empty configured token', () => {
    expect(verifyHandshake({ ...query, 'hub.mode': 'unsubscribe' }, 'meu-token')).toBeNull();
    expect(verifyHandshake({ ...query, 'hub.verify_token': 'meu-token2' }, 'meu-token')).toBeNull();
    expect(verifyHandshake({ ...query, 'hub.verify_token': undefined }, 'meu-token')).toBeNull();
    expect(verifyHandshake({ ...query, 'hub.challenge': '' }, 'meu-token')).toBeNull();
    expect(verifyHandshake({ ...query, 'hub.verify_token': '' }, '')).toBeNull();
  });
});
