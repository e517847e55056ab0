/**
 * Round-robin assignment (docs/conversation-lifecycle.md#round-robin): the lifecycle asks
 * (request_round_robin) when a conversation enters a queue; the caller reads the department's
 * members, who is online and how many open conversations each has, picks with this function and
 * answers the lifecycle with agent_assign. Members take turns in a fixed order (by id) starting after
 * the last one picked in the department; one who is offline or at the cap is skipped. Nobody fits: null,
 * and the conversation waits in the queue (asked again when a member comes online or frees a place).
 */
export interface RoundRobinMember {
  userId: string;
  online: boolean;
  /** Open (assigned) conversations the member has now. */
  openCount: number;
}

export function pickRoundRobin(members: readonly RoundRobinMember[], lastPicked: string | null, maxOpenPerAgent: number): string | null {
  const order = [...members].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const start = lastPicked === null ? 0 : order.findIndex((m) => m.userId > lastPicked);
  const from = Math.max(start, 0);
  for (let i = 0; i < order.length; i++) {
    const member = order[(from + i) % order.length]!;
    if (member.online && member.openCount < maxOpenPerAgent) return member.userId;
  }
  return null;
}
