/** Recognising DynamoDB's conditional failures, single or inside a transaction. */

export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return name === 'ConditionalCheckFailedException';
}

/** For a cancelled transaction, the index of each operation whose condition failed. */
export function failedConditions(error: unknown): number[] | null {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return null;
  return (e.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}
