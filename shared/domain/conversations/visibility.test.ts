import { describe, expect, it } from 'vitest';
import { canSee, visibleWhere, type Viewer } from '#domain/conversations/visibility.ts';
import { matchesWhere } from '#domain/list-query.ts';

const member: Viewer = { userId: 'me', seesAll: false, departmentIds: ['finance'] };
const contacts = [
  { id: 'mine', userId: 'me', departmentId: 'sales', status: 'open' },
  { id: 'theirs', userId: 'ana', departmentId: null, status: 'open' },
  { id: 'finance-queue', userId: null, departmentId: 'finance', status: 'pending' },
  { id: 'sales-queue', userId: null, departmentId: 'sales', status: 'open' },
  { id: 'general', userId: null, departmentId: null, status: 'resolved' },
];
const visible = (viewer: Viewer, where: Record<string, unknown>) =>
  contacts.filter((c) => matchesWhere(c, visibleWhere(viewer, where as never))).map((c) => c.id);

describe('who sees which conversation', () => {
  it("a member sees theirs, their departments' queue and the general queue", () => {
    expect(visible(member, {})).toEqual(['mine', 'finance-queue', 'general']);
    expect(contacts.filter((c) => canSee(member, c)).map((c) => c.id)).toEqual(['mine', 'finance-queue', 'general']);
  });

  it("keeps the caller's own filter, its `or` included", () => {
    expect(visible(member, { status: 'open' })).toEqual(['mine']);
    expect(visible(member, { or: [{ status: 'pending' }, { status: 'resolved' }] })).toEqual(['finance-queue', 'general']);
    expect(visible(member, { userId: 'ana' })).toEqual([]);
  });

  it('an admin, or a member with the account setting, sees every one', () => {
    expect(visible({ ...member, seesAll: true }, {})).toHaveLength(contacts.length);
  });
});
