import { describe, expect, it } from 'vitest';
import { allowedConversationActions } from './allowed-actions.ts';

const admin = { id: 'admin', isAdmin: true };
const ana = { id: 'ana', isAdmin: false };

describe('allowedConversationActions', () => {
  it('lets a member take, transfer and change the status of nobody’s conversation, but not release it', () => {
    expect(allowedConversationActions({ userId: null, status: 'open' }, ana)).toEqual({
      take: true,
      transfer: true,
      release: false,
      statuses: ['pending', 'resolved'],
      tags: true,
    });
  });

  it('lets a member transfer, release and change the status of their own, without taking it again', () => {
    expect(allowedConversationActions({ userId: 'ana', status: 'pending' }, ana)).toEqual({
      take: false,
      transfer: true,
      release: true,
      statuses: ['open', 'resolved'],
      tags: true,
    });
  });

  it('leaves a member only the tags of someone else’s conversation (seen with "members see all")', () => {
    expect(allowedConversationActions({ userId: 'bruno', status: 'open' }, ana)).toEqual({
      take: false,
      transfer: false,
      release: false,
      statuses: [],
      tags: true,
    });
  });

  it('lets an admin transfer, release and change someone else’s, but not take it (the server answers 409)', () => {
    expect(allowedConversationActions({ userId: 'bruno', status: 'resolved' }, admin)).toEqual({
      take: false,
      transfer: true,
      release: true,
      statuses: ['open', 'pending'],
      tags: true,
    });
  });

  it('lets an admin take nobody’s, and never offers releasing an unassigned one', () => {
    const actions = allowedConversationActions({ userId: null, status: 'open' }, admin);
    expect(actions.take).toBe(true);
    expect(actions.release).toBe(false);
  });

  it('treats a contact stored before statuses existed as open', () => {
    expect(allowedConversationActions({ userId: null, status: undefined as never }, ana).statuses).toEqual(['pending', 'resolved']);
  });
});
