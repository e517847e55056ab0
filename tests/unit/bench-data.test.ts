import { describe, expect, it } from 'vitest';
import { entityTypes } from '#db/keys.ts';
import { inboxItems, issueShape, mulberry32, planInbox } from '../../scripts/bench-data.ts';

describe('mulberry32', () => {
  it('does not cycle: 100,000 draws are all but a handful distinct (32-bit birthday collisions), in [0, 1)', () => {
    const random = mulberry32(42);
    const seen = new Set<number>();
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const value = random();
      if (!(value >= 0 && value < 1)) outside++;
      seen.add(value);
    }
    expect(outside).toBe(0);
    // The former generator gave about 10,000 distinct values here.
    expect(seen.size).toBeGreaterThan(99_950);
  });

  it('gives the same numbers for the same seed', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });
});

describe("the benchmarks' inbox data", () => {
  const plan = planInbox(issueShape);

  it('has 25,000 contacts, every one a conversation, and 100,000 messages with one conversation of 5,000', () => {
    expect(plan).toHaveLength(25_000);
    expect(plan[0]!.messages).toBe(5_000);
    expect(plan.every((c) => c.messages >= 1)).toBe(true);
    expect(plan.reduce((n, c) => n + c.messages, 0)).toBe(100_000);
    // The others share 70,001 messages beyond their first one: about 3.8 each, none near the big one.
    expect(Math.max(...plan.slice(1).map((c) => c.messages))).toBeLessThan(30);
  });

  it('draws names from the whole space of 25 × 25 × 25 (about 12,500 distinct among 25,000)', () => {
    const names = new Set(plan.map((c) => c.name));
    expect(names.size).toBeGreaterThan(12_000);
    expect(names.size).toBeLessThanOrEqual(15_625);
    // 'silva' is one of the 25 surnames, drawn twice: 1 - (24/25)^2 ≈ 7.8 % of the names.
    const silva = plan.filter((c) => c.name.toLowerCase().includes('silva')).length;
    expect(silva).toBeGreaterThan(1_700);
    expect(silva).toBeLessThan(2_200);
    expect(new Set(plan.map((c) => c.phone)).size).toBe(25_000);
  });

  it('writes each contact with its messages, its last message as its summary, and all in the past', async () => {
    const shape = { contacts: 500, messages: 3_000, bigConversation: 1_000, seed: 42 };
    const items: Record<string, unknown>[] = [];
    const now = Date.now();
    const seeded = await inboxItems(
      shape,
      async (item) => {
        items.push(item);
      },
      now,
    );
    const contacts = items.filter((i) => i.type === entityTypes.contact);
    const messages = items.filter((i) => i.type === entityTypes.message);
    expect(contacts).toHaveLength(500);
    expect(messages).toHaveLength(3_000);
    const perContact = new Map<unknown, number>();
    for (const m of messages) perContact.set(m.contactId, (perContact.get(m.contactId) ?? 0) + 1);
    expect(perContact.size).toBe(500);
    expect(perContact.get(seeded.bigContactId)).toBe(1_000);
    for (const contact of contacts) {
      expect(contact.messagesCount).toBe(perContact.get(contact.id));
      const last = messages.filter((m) => m.contactId === contact.id).at(-1)!;
      expect(contact.lastMessageAt).toBe(last.timestamp);
      expect((contact.lastMessage as { id: string }).id).toBe(last.id);
    }
    expect(messages.every((m) => Date.parse(m.timestamp as string) < now)).toBe(true);
    expect(items.filter((i) => i.type === entityTypes.channelContact)).toHaveLength(500);
    // The owner's password hash (scrypt) is slow on a busy machine.
  }, 30_000);
});
