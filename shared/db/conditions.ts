/** Recognising DynamoDB's conditional failures, single or inside a transaction. */

export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException';
}

/**
 * A single conditional write's answer, or undefined when its condition did not hold; any other
 * failure is rethrown. Lets repositories answer "not written" instead of a DynamoDB error.
 */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * For a cancelled transaction, the index of each operation whose condition failed.
 * @deprecated Name the members with `writeTogether` and ask `refusedBy` (transaction.ts). Kept while
 * shared/domain/services/services.ts and shared/domain/messages/dispatch.ts still decode by position.
 */
export function failedConditions(error: unknown): number[] | null {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return null;
  return (e.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}
