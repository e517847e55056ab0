/**
 * The conversation events of an account with no automation on, read off the contact before and
 * after the move (conversation-events.ts): what starts a conversation, what is its first answer and
 * its resolution, and what counts nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ContactFields, ContactItem } from '#db/contacts.ts';
import type { Steps } from '#db/transaction.ts';
import { lifecycleOf } from './apply-lifecycle.ts';
import { eventsWithoutAutomations } from './conversation-events.ts';

const t0 = Date.parse('2026-11-27T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function contact(fields: Partial<ContactItem> = {}): ContactItem {
  return {
    pk: 'ACCOUNT#a1',
    sk: 'CONTACT#c1',
    type: 'Contact',
    id: 'c1',
    accountId: 'a1',
    serviceId: 's1',
    contactType: 'user',
    lastMessageAt: iso(t0 - 60_000),
    status: 'open',
    userId: null,
    departmentId: 'd1',
    ...fields,
  } as ContactItem;
}

/** The events' items by kind. */
const items = (steps: Steps) => Object.values(steps).map((step) => (step as { Put: { Item: Record<string, unknown> } }).Put.Item);
const customer = { kind: 'customer_message' as const, text: 'Oi', protocol: '20261127-NEW1' };
const reply = { kind: 'agent_reply' as const, userId: 'u1' };
const started = { protocol: '20261127-OLD1', startedAt: iso(t0 - 60_000), firstResponseAt: null };

describe('conversation events without automations', () => {
  it("starts a conversation on a customer's message to a new contact or a resolved one, and keeps its start on the contact", () => {
    for (const before of [contact({ lastMessageAt: null }), contact({ status: 'resolved', conversationStats: { ...started, firstResponseAt: iso(t0) } })]) {
      const changes: Partial<ContactFields> = before.status === 'resolved' ? { status: 'open' } : {};
      const steps = eventsWithoutAutomations(before, customer, changes, { at: t0, cause: 'customer' });
      expect(items(steps)).toEqual([
        expect.objectContaining({
          pk: 'ACCOUNT#a1#CONVERSATION-EVENTS#2026-11',
          kind: 'started',
          protocol: customer.protocol,
          at: iso(t0),
          departmentId: 'd1',
          userId: null,
        }),
      ]);
      expect(changes.conversationStats).toEqual({ protocol: customer.protocol, startedAt: iso(t0), firstResponseAt: null });
    }
  });

  it('counts nothing for a message to a conversation going on, even one from before reports', () => {
    for (const before of [contact({ conversationStats: started }), contact()]) {
      const changes: Partial<ContactFields> = {};
      expect(eventsWithoutAutomations(before, customer, changes, { at: t0, cause: 'customer' })).toEqual({});
      expect(changes).toEqual({});
    }
  });

  it("counts a person's first reply once, with the wait since the start, and never for a resolved conversation", () => {
    const changes: Partial<ContactFields> = {};
    const steps = eventsWithoutAutomations(contact({ conversationStats: started }), reply, changes, { at: t0, cause: 'team' });
    expect(items(steps)).toEqual([expect.objectContaining({ kind: 'first_response', userId: 'u1', waitMs: 60_000, protocol: started.protocol })]);
    expect(changes.conversationStats).toEqual({ ...started, firstResponseAt: iso(t0) });

    const answered = contact({ conversationStats: changes.conversationStats });
    expect(eventsWithoutAutomations(answered, reply, {}, { at: t0 + 1, cause: 'team' })).toEqual({});
    expect(eventsWithoutAutomations(contact({ status: 'resolved', conversationStats: started }), reply, {}, { at: t0, cause: 'team' })).toEqual({});
  });

  it('counts a resolution by the team with the time since the start and the assignee the move leaves', () => {
    const changes: Partial<ContactFields> = { status: 'resolved' };
    const before = contact({ userId: 'u2', conversationStats: { ...started, firstResponseAt: iso(t0 - 30_000) } });
    const steps = eventsWithoutAutomations(before, { kind: 'agent_resolve' }, changes, { at: t0, cause: 'team' });
    expect(items(steps)).toEqual([expect.objectContaining({ kind: 'resolved', by: 'team', handledMs: 60_000, userId: 'u2', protocol: started.protocol })]);
    // A stale lifecycle (automations switched off since) does not change what the fields say.
    const stale = { ...before, lifecycle: { ...lifecycleOf(before), kind: 'bot', protocol: 'OTHER' } };
    expect(items(eventsWithoutAutomations(stale, { kind: 'agent_resolve' }, { status: 'resolved' }, { at: t0, cause: 'team' }))).toHaveLength(1);
  });

  it('gives the lifecycle the protocol reports counted when no state is stored, so switching automations on keeps counting it', () => {
    expect(lifecycleOf(contact({ conversationStats: started }))).toMatchObject({ kind: 'waiting', protocol: started.protocol });
    expect(lifecycleOf(contact({ lastMessageAt: null }))).toMatchObject({ kind: 'resolved', protocol: null });
  });
});
