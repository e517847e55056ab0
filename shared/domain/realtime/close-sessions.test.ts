import { describe, expect, it } from 'vitest';
import type { ConnectionItem } from '#db/ws-connections.ts';
import { sessionsEndedBy } from '#domain/realtime/close-sessions.ts';

const conn = (fields: Partial<ConnectionItem>): ConnectionItem => ({ connectionId: 'c', accountId: 'A', userId: 'u1', connectedAt: '', ...fields });
const user = (fields: Record<string, unknown> = {}) => ({ type: 'User', id: 'u1', accountId: 'A', archivedAt: null, ...fields });

describe('which table changes end which realtime connections', () => {
  it('a revoked token ends the connections opened with it, in its account', () => {
    const ended = sessionsEndedBy('INSERT', undefined, { type: 'RevokedToken', jti: 'j1', accountId: 'A', userId: 'u1' })!;
    expect(ended.accountId).toBe('A');
    expect(ended.ends(conn({ jti: 'j1' }))).toBe(true);
    expect(ended.ends(conn({ jti: 'j2' }))).toBe(false);
    // A token of a user without an account has no connections.
    expect(sessionsEndedBy('INSERT', undefined, { type: 'RevokedToken', jti: 'j1', accountId: null, userId: 'u1' })).toBeNull();
  });

  it('a user archived or removed ends all of that user’s connections, no one else’s', () => {
    for (const ended of [sessionsEndedBy('MODIFY', user(), user({ archivedAt: '2026-11-23T00:00:00Z' })), sessionsEndedBy('REMOVE', user(), undefined)]) {
      expect(ended!.ends(conn({}))).toBe(true);
      expect(ended!.ends(conn({ userId: 'u2' }))).toBe(false);
    }
  });

  it('a new session generation ends the connections of older generations only', () => {
    const ended = sessionsEndedBy('MODIFY', user({ sessionGeneration: 1 }), user({ sessionGeneration: 2 }))!;
    expect(ended.ends(conn({ generation: 1 }))).toBe(true);
    expect(ended.ends(conn({}))).toBe(true);
    expect(ended.ends(conn({ generation: 2 }))).toBe(false);
  });

  it("a role change closes that user's sockets opened with the other role, so they reopen with the new one", () => {
    const promoted = sessionsEndedBy('MODIFY', user({ isAdmin: false }), user({ isAdmin: true }))!;
    expect(promoted.ends(conn({ isAdmin: false }))).toBe(true);
    expect(promoted.ends(conn({}))).toBe(true);
    expect(promoted.ends(conn({ isAdmin: true }))).toBe(false);
    expect(promoted.ends(conn({ userId: 'u2', isAdmin: false }))).toBe(false);
    const demoted = sessionsEndedBy('MODIFY', user({ isAdmin: true }), user({ isAdmin: false }))!;
    expect(demoted.ends(conn({ isAdmin: true }))).toBe(true);
    expect(demoted.ends(conn({ isAdmin: false }))).toBe(false);
    expect(sessionsEndedBy('MODIFY', user({ isAdmin: true }), user({ isAdmin: true, name: 'Outro' }))).toBeNull();
  });

  it('other changes end nothing: a rename, an archived user renamed, an unarchive, other items', () => {
    expect(sessionsEndedBy('MODIFY', user(), user({ name: 'Outro' }))).toBeNull();
    expect(sessionsEndedBy('MODIFY', user({ archivedAt: 'x' }), user({ archivedAt: 'x', name: 'Outro' }))).toBeNull();
    expect(sessionsEndedBy('MODIFY', user({ archivedAt: 'x' }), user())).toBeNull();
    expect(sessionsEndedBy('MODIFY', user({ sessionGeneration: 2 }), user({ sessionGeneration: 2 }))).toBeNull();
    expect(sessionsEndedBy('INSERT', undefined, user())).toBeNull();
    expect(sessionsEndedBy('REMOVE', { type: 'Contact', id: 'c', accountId: 'A' }, undefined)).toBeNull();
  });
});
