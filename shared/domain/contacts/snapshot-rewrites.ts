/**
 * When an account's contact snapshot is written again (ADR-0239). A cold directory loads the
 * snapshot and then reads the changes made since it from the change index, so a snapshot behind by
 * a few changes costs a cold load a few items, while each rewrite decodes nothing but encodes every
 * contact: rewriting on every change (at most every 10 s) spent more CPU in the local runtime's
 * thread on encoding than on answering lists at 1,000 accounts. A snapshot is written again once
 * the changes since it are worth a share of the account's contacts, or an hour after its first
 * unwritten change, whichever comes first.
 */
export const snapshotRewrite = {
  /** At most one write per account in this long (a burst of writes costs one encoding). */
  minIntervalMs: 10_000,
  /** Changes waiting this long are written with the next batch that touches the account. */
  maxPendingMs: 60 * 60_000,
  /** Changes that make a rewrite worth it: this many, or this share of the account's contacts if more. */
  minChanges: 50,
  changesShare: 0.02,
};

interface Pending {
  changes: number;
  /** When the first change not in a snapshot written here was seen. */
  since: number;
  writtenAt: number | undefined;
}

/**
 * The changes a consumer container has seen per account since it last wrote each snapshot. Only in
 * memory: a new container starts counting from zero, and what it did not count is read by the next
 * cold directory from the change index, as any change after a snapshot is.
 */
export class SnapshotRewrites {
  private accounts = new Map<string, Pending>();
  private prunedAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts `changes` for the account; answers whether its snapshot may be due, before the contact count is known. */
  note(accountId: string, changes: number): boolean {
    const now = this.now();
    this.prune(now);
    const pending = this.accounts.get(accountId) ?? { changes: 0, since: now, writtenAt: undefined };
    if (pending.changes === 0) pending.since = now;
    pending.changes += changes;
    this.accounts.set(accountId, pending);
    if (pending.writtenAt !== undefined && now - pending.writtenAt < snapshotRewrite.minIntervalMs) return false;
    return pending.changes >= snapshotRewrite.minChanges || now - pending.since >= snapshotRewrite.maxPendingMs;
  }

  /** Whether the account's snapshot is due, given its contacts (after `note` said it may be). */
  due(accountId: string, contacts: number): boolean {
    const pending = this.accounts.get(accountId);
    if (!pending?.changes) return false;
    const worth = Math.max(snapshotRewrite.minChanges, Math.ceil(contacts * snapshotRewrite.changesShare));
    return pending.changes >= worth || this.now() - pending.since >= snapshotRewrite.maxPendingMs;
  }

  written(accountId: string): void {
    this.accounts.set(accountId, { changes: 0, since: this.now(), writtenAt: this.now() });
  }

  /** Accounts tracked: the ones with unwritten changes or a write within the interval. */
  get size(): number {
    return this.accounts.size;
  }

  /**
   * Forgets accounts with nothing pending once past the interval, and pending counts twice as old
   * as the hour (their account had no batch since: the next cold load reads those changes), so the
   * map holds only the accounts written in the last two hours.
   */
  private prune(now: number): void {
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    for (const [accountId, p] of this.accounts) {
      const idle = p.changes === 0 && (p.writtenAt === undefined || now - p.writtenAt >= snapshotRewrite.minIntervalMs);
      if (idle || now - p.since >= 2 * snapshotRewrite.maxPendingMs) this.accounts.delete(accountId);
    }
  }
}
