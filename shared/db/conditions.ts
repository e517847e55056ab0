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
