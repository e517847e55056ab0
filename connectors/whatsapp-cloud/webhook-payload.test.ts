import { describe, expect, it } from 'vitest';
import { customerMessage, deliveryOf, metadata } from './meta-examples.ts';
import { signBody } from './signature.ts';
import { delivery, openDelivery, readChange, readMessage } from './webhook-payload.ts';

const secret = 'app-secret';
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const signed = (raw: Uint8Array) => ({ 'x-hub-signature-256': signBody(raw, secret) });

describe('openDelivery', () => {
  it('parses a genuine delivery', () => {
    const raw = bytes(customerMessage({ type: 'text', text: { body: 'Oi' } }));
    const opened = openDelivery(raw, signed(raw), secret);
    expect(opened.kind).toBe('ok');
  });

  it('refuses an unsigned or wrongly signed body without parsing it', () => {
    // Not JSON at all: a refusal proves the parser never ran (it would answer invalid).
    const garbage = new TextEncoder().encode('{not json');
    expect(openDelivery(garbage, {}, secret)).toEqual({ kind: 'refused', reason: 'missing' });
    expect(openDelivery(garbage, { 'x-hub-signature-256': 'sha256=abc' }, secret)).toEqual({ kind: 'refused', reason: 'malformed' });
    expect(openDelivery(garbage, { 'x-hub-signature-256': signBody(garbage, 'other') }, secret)).toEqual({ kind: 'refused', reason: 'mismatch' });
  });

  it('answers invalid for a genuine body that is not JSON, not UTF-8, or not a WhatsApp Business Account delivery', () => {
    const notJson = new TextEncoder().encode('{not json');
    expect(openDelivery(notJson, signed(notJson), secret).kind).toBe('invalid');
    const notUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    expect(openDelivery(notUtf8, signed(notUtf8), secret).kind).toBe('invalid');
    const page = bytes({ object: 'page', entry: [] });
    expect(openDelivery(page, signed(page), secret).kind).toBe('invalid');
  });
});

describe('delivery', () => {
  it('keeps fields Meta adds that we do not know', () => {
    const body = { ...deliveryOf('messages', {}), extra: 1 };
    body.entry[0]!.changes[0]!.value = { metadata, brand_new: { a: 1 } };
    const parsed = delivery.parse(body);
    expect((parsed as Record<string, unknown>).extra).toBe(1);
    const read = readChange(parsed.entry[0]!.changes[0]!);
    expect(read.field).toBe('messages');
    expect((read as { value: Record<string, unknown> }).value.brand_new).toEqual({ a: 1 });
  });

  it('reads entry.time as a number and message timestamps as digit strings', () => {
    const body = { object: 'whatsapp_business_account', entry: [{ id: '1', time: 1739321024, changes: [] }] };
    expect(delivery.parse(body).entry[0]!.time).toBe(1739321024);
    expect(readMessage({ from: '1', id: 'w', timestamp: '1749416383', type: 'text', text: { body: 'x' } })?.base.timestamp).toBe(1749416383);
    expect(readMessage({ from: '1', id: 'w', timestamp: 'yesterday', type: 'text', text: { body: 'x' } })).toBeNull();
  });
});

describe('readChange', () => {
  it('answers a field we do not follow, and a known field with a value we cannot read, as ignored', () => {
    expect(readChange({ field: 'flows', value: {} })).toEqual({ field: 'ignored', name: 'flows' });
    const bad = readChange({ field: 'messages', value: { metadata: { display_phone_number: '1' } } });
    expect(bad.field).toBe('ignored');
    expect((bad as { issue?: string }).issue).toContain('phone_number_id');
  });

  it('does not take a field named after an Object prototype key', () => {
    expect(readChange({ field: 'constructor', value: {} })).toEqual({ field: 'ignored', name: 'constructor' });
  });
});

describe('readMessage', () => {
  const base = { from: '16505551234', id: 'wamid.X', timestamp: '1750090702' };

  it('reads Meta’s unsupported example as unsupported, naming the type it gives', () => {
    const message = readMessage({
      ...base,
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } },
      ],
      type: 'unsupported',
      unsupported: { type: 'edit' },
    });
    expect(message).toMatchObject({ type: 'unsupported', originalType: 'edit', errors: [{ code: 131051 }] });
  });

  it('turns a type it does not know, and a known type with unreadable content, into unsupported', () => {
    expect(readMessage({ ...base, type: 'unknown', errors: [{ code: 131051 }] })).toMatchObject({ type: 'unsupported', originalType: 'unknown' });
    expect(readMessage({ ...base, type: 'hologram', hologram: {} })).toMatchObject({ type: 'unsupported', originalType: 'hologram' });
    expect(readMessage({ ...base, type: 'image', image: { caption: 'no id' } })).toMatchObject({ type: 'unsupported', originalType: 'image' });
    expect(readMessage({ ...base, type: 'toString' })).toMatchObject({ type: 'unsupported', originalType: 'toString' });
    expect(readMessage({ ...base, type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: {} } })).toMatchObject({ type: 'unsupported' });
  });
});
