/**
 * Polls and their votes. A poll arrives as a `pollCreationMessage*` with a random `messageSecret`
 * (Baileys' `generateWAMessageContent` puts it in `messageContextInfo`); each vote arrives as a
 * `pollUpdateMessage` naming the poll's key and carrying the voter's selection encrypted with a key
 * derived from that secret, the poll's id, its creator's JID and the voter's JID. Baileys 7 does not
 * decrypt votes itself (its handler in Utils/process-message.js is commented out); it exports
 * `decryptPollVote` and the aggregation `getAggregateVotesInPollMessage`, whose rules are kept here:
 * options are named in a vote by the SHA-256 of their name, and a voter's latest vote replaces
 * their earlier one (an empty one withdraws it).
 *
 * The secret, the options and the votes are kept per poll in a channel record under the
 * connection (`WHATSAPP-POLL#<poll id>`); the poll's message shows the current tally as its text,
 * changed through the sink's `edit` without marking the message edited (docs/product.md#entities-and-states).
 */
import { decryptPollVote, getKeyAuthor, jidNormalizedUser, type proto, sha256, type WAMessage, type WAMessageKey } from 'baileys';
import { getChannelRecord, putChannelRecord } from '#db/channel-records.ts';
import type { Ports } from '#domain/ports.ts';
import type { ConnectionRef } from './auth-state.ts';

/** What is kept of a poll: enough to decrypt its votes and to show the tally. */
export interface PollRecord {
  /** The poll's `messageSecret`, base64. */
  secret: string;
  /** Who may have created it, as a voter's phone would name them (the first that decrypts a vote wins). */
  creators: string[];
  question: string;
  options: string[];
  /** Each voter's current choice, by option name. */
  votes: Record<string, string[]>;
}

/** Where a connection's polls are kept. */
export interface PollStore {
  get(pollId: string): Promise<PollRecord | undefined>;
  put(pollId: string, record: PollRecord): Promise<void>;
}

/** A poll's record lives as long as a conversation is worth answering; a vote on an older poll changes nothing. */
const pollTtlSeconds = 180 * 24 * 3600;

export function tablePolls(ports: Pick<Ports, 'table'>, connection: ConnectionRef): PollStore {
  const { accountId, serviceId } = connection;
  const address = (id: string) => ({ scope: 'connection' as const, accountId, serviceId, channel: 'whatsapp', kind: 'POLL', id });
  return {
    get: (pollId) => getChannelRecord<PollRecord>(ports.table, address(pollId)),
    put: (pollId, record) => putChannelRecord(ports.table, address(pollId), record, { ttlSeconds: pollTtlSeconds }),
  };
}

type PollCreation = proto.Message.IPollCreationMessage;

export function pollCreationOf(content: proto.IMessage): PollCreation | null {
  return content.pollCreationMessage ?? content.pollCreationMessageV2 ?? content.pollCreationMessageV3 ?? content.pollCreationMessageV5 ?? null;
}

/** The JIDs a key's author may go by (Baileys' `getKeyAuthor` first, then the other forms), without devices. */
function authorsOf(key: WAMessageKey, me: string | null): string[] {
  const jids = key.fromMe ? [me] : [getKeyAuthor(key, me ?? ''), key.participant, key.participantAlt, key.remoteJid, key.remoteJidAlt];
  return [...new Set(jids.filter((jid): jid is string => Boolean(jid)).map((jid) => jidNormalizedUser(jid) || jid))];
}

/** The record of a newly received poll; null when it carries no secret (its votes cannot be read). */
export function pollRecordOf(message: WAMessage, poll: PollCreation, content: proto.IMessage, me: string | null): PollRecord | null {
  const secret = message.message?.messageContextInfo?.messageSecret ?? content.messageContextInfo?.messageSecret;
  if (!secret?.length) return null;
  return {
    secret: Buffer.from(secret).toString('base64'),
    creators: authorsOf(message.key, me),
    question: poll.name ?? '',
    options: (poll.options ?? []).map((o) => o.optionName ?? ''),
    votes: {},
  };
}

/**
 * A vote applied to its poll: the record with the voter's new choice, or null when the vote cannot
 * be read with this poll's secret (not its poll, or tampered with).
 */
export function applyVote(
  record: PollRecord,
  pollId: string,
  voteMessage: WAMessage,
  vote: proto.Message.IPollUpdateMessage,
  me: string | null,
): PollRecord | null {
  const encrypted = vote.vote;
  if (!encrypted?.encPayload || !encrypted.encIv) return null;
  const pollEncKey = Buffer.from(record.secret, 'base64');
  for (const voterJid of authorsOf(voteMessage.key, me)) {
    for (const pollCreatorJid of record.creators) {
      let decrypted: proto.Message.PollVoteMessage;
      try {
        decrypted = decryptPollVote({ encPayload: encrypted.encPayload, encIv: encrypted.encIv }, { pollCreatorJid, pollMsgId: pollId, pollEncKey, voterJid });
      } catch {
        continue; // another pair of JIDs, or not this poll's vote
      }
      const byHash = new Map(record.options.map((name) => [sha256(Buffer.from(name)).toString('hex'), name]));
      const chosen = (decrypted.selectedOptions ?? []).flatMap((hash) => {
        const name = byHash.get(Buffer.from(hash).toString('hex'));
        return name === undefined ? [] : [name];
      });
      const { [voterJid]: _, ...others } = record.votes;
      void _;
      return { ...record, votes: chosen.length ? { ...others, [voterJid]: chosen } : others };
    }
  }
  return null;
}

const votesText = (count: number) => (count === 1 ? '1 voto' : `${count} votos`);

/** The poll as the inbox shows it: the question, each option with its votes once anyone voted, and how many people voted. */
export function pollTally(record: Pick<PollRecord, 'question' | 'options' | 'votes'>): string {
  const voters = Object.values(record.votes);
  if (!voters.length) return [`📊 Enquete: ${record.question}`, ...record.options.filter(Boolean).map((o) => `• ${o}`)].join('\n');
  const lines = record.options.filter(Boolean).map((option) => `• ${option}: ${votesText(voters.filter((chosen) => chosen.includes(option)).length)}`);
  const people = voters.length === 1 ? '1 pessoa votou' : `${voters.length} pessoas votaram`;
  return [`📊 Enquete: ${record.question}`, ...lines, people].join('\n');
}
