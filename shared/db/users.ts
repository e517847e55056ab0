/** User items, the per-account e-mail guard, and the e-mail index across accounts. */
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Table } from './client.ts';
import { unlessConditionFails } from './conditions.ts';
import { entityTypes, keys } from './keys.ts';
import {
  deleteExistingStep,
  deleteStep,
  maxTransactionMembers,
  putNewStep,
  writeTogether,
  type DeleteStep,
  type PutStep,
  type UpdateStep,
} from './transaction.ts';

export interface UserItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  type: typeof entityTypes.user;
  id: string;
  name: string;
  email: string;
  accountId: string | null;
  passwordHash: string;
  isAdmin: boolean;
  isOwner: boolean;
  emailVerified: boolean;
  /**
   * An address the user asked to move to, not yet proven: it takes the place of `email` only when
   * the code sent to it comes back (docs/security.md, "Who owns an address"). Absent: none.
   */
  pendingEmail?: string | null;
  avatarUrl: string | null;
  archivedAt: string | null;
  /**
   * Why the user is archived: by an admin ('manual'), or by the plan-limit consumer after the plan
   * lowered the users limit ('limit'; such users come back when the plan has room again). Absent on
   * users archived before the reason existed: they count as archived by hand.
   */
  archivedReason?: 'limit' | 'manual' | null;
  /**
   * Tokens carry the generation they were issued in and are refused once it moves on (a password
   * reset, archiving, and an admin setting the user's password move it). Absent: 0.
   */
  sessionGeneration?: number;
  /** 'Não assinar minhas mensagens': this person's messages never go signed (signature.ts). Absent: signed when the account signs. */
  skipSignature?: boolean;
  createdAt: string;
  updatedAt: string;
}

export type UserFields = Omit<UserItem, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'type'>;

export function userItem(fields: UserFields): UserItem {
  return {
    ...keys.user(fields.accountId, fields.id),
    ...keys.userByEmail(fields.email, fields.id),
    ...keys.userById(fields.id),
    type: entityTypes.user,
    ...fields,
  };
}

/** A user just created: not an owner, e-mail not confirmed yet, no avatar, active. */
export function newUserItem(fields: Pick<UserFields, 'id' | 'name' | 'email' | 'accountId' | 'passwordHash' | 'isAdmin'>, now: string): UserItem {
  return userItem({ ...fields, isOwner: false, emailVerified: false, avatarUrl: null, archivedAt: null, createdAt: now, updatedAt: now });
}

export function userFields(item: UserItem): UserFields {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, type, ...fields } = item;
  void pk;
  void sk;
  void gsi1pk;
  void gsi1sk;
  void gsi2pk;
  void gsi2sk;
  void type;
  return fields;
}

/** A user by account and id; `consistent` for a read that a conditional write will follow. */
export async function getUserItem(table: Table, accountId: string | null, userId: string, consistent = false): Promise<UserItem | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.user(accountId, userId), ConsistentRead: consistent || undefined }));
  return Item as UserItem | undefined;
}

/** Every item a Query answers, page after page; with `limit`, it stops reading once it has that many. */
export async function queryAll<T>(table: Table, input: Omit<QueryCommandInput, 'TableName'>, limit = Number.POSITIVE_INFINITY): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await table.doc.send(new QueryCommand({ TableName: table.name, ...input, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return items.length > limit ? items.slice(0, limit) : items;
}

/** Every user with this e-mail, in any account or none (gsi1). */
export function usersByEmail(table: Table, email: string): Promise<UserItem[]> {
  return queryAll<UserItem>(table, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.usersByEmail(email).gsi1pk },
  });
}

/** A user by id alone, wherever it lives (gsi2): the public verification calls know only the id. */
export async function findUserById(table: Table, userId: string): Promise<UserItem | undefined> {
  const items = await queryAll<UserItem>(table, {
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userById(userId).gsi2pk },
  });
  return items[0];
}

/** Every user of an account. */
export function accountUsers(table: Table, accountId: string): Promise<UserItem[]> {
  const { pk, skPrefix } = keys.accountUsers(accountId);
  return queryAll<UserItem>(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  });
}

type UserRef = Pick<UserItem, 'accountId' | 'id'>;

async function updateUser(table: Table, user: UserRef, set: string, values: Record<string, unknown>): Promise<UserItem> {
  const { Attributes } = await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.user(user.accountId, user.id),
      UpdateExpression: `SET ${set}, updatedAt = :now`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as UserItem;
}

/**
 * Transaction member: the address a one-time code proved is confirmed, refused when the user no
 * longer has that address.
 */
export function confirmAddressStep(user: UserRef, address: string, now: string): UpdateStep {
  return {
    Update: {
      Key: keys.user(user.accountId, user.id),
      UpdateExpression: 'SET emailVerified = :yes, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND email = :address',
      ExpressionAttributeValues: { ':yes': true, ':now': now, ':address': address },
    },
  };
}

/** Moves the session generation on: every token issued before is refused from now on, for good. */
const endSessions = 'sessionGeneration = if_not_exists(sessionGeneration, :zero) + :one';

/**
 * Archives (with the moment given) or unarchives (null) a user by hand. Archiving ends the user's
 * sessions for good: bringing the user back does not bring back the tokens refused meanwhile.
 */
export function setUserArchivedAt(table: Table, user: UserRef, archivedAt: string | null, now: string): Promise<UserItem> {
  const values = { ':at': archivedAt, ':why': archivedAt ? 'manual' : null, ':now': now };
  if (!archivedAt) return updateUser(table, user, 'archivedAt = :at, archivedReason = :why', values);
  return updateUser(table, user, `archivedAt = :at, archivedReason = :why, ${endSessions}`, { ...values, ':zero': 0, ':one': 1 });
}

/**
 * The plan's limit archives an active user, or brings back a user it archived. Conditional, so a
 * user an admin archived or brought back meanwhile is left alone: answers whether it was written.
 */
export async function setUserArchivedByLimit(table: Table, user: UserRef, archivedAt: string | null, now: string): Promise<boolean> {
  const archiving = archivedAt !== null;
  const answer = await unlessConditionFails(
    table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: keys.user(user.accountId, user.id),
        // Archiving ends the user's sessions for good, as by hand.
        UpdateExpression: `SET archivedAt = :at, archivedReason = :why, updatedAt = :now${archiving ? `, ${endSessions}` : ''}`,
        ConditionExpression: archiving
          ? 'attribute_exists(pk) AND (attribute_not_exists(archivedAt) OR archivedAt = :null)'
          : 'attribute_exists(pk) AND archivedReason = :limit',
        ExpressionAttributeValues: {
          ':at': archivedAt,
          ':why': archiving ? 'limit' : null,
          ':now': now,
          ...(archiving ? { ':null': null, ':zero': 0, ':one': 1 } : { ':limit': 'limit' }),
        },
      }),
    ),
  );
  return answer !== undefined;
}

/**
 * A new signed-up user together with the sign-up claim on its e-mail: refused (member `claim`) when
 * another sign-up holds the e-mail, so concurrent sign-ups with one e-mail make one user. A claim
 * whose user is gone (deleted since) is taken over by naming that user in `staleUserId`.
 */
export async function putSignedUpUser(table: Table, item: UserItem, staleUserId?: string): Promise<void> {
  const claim = { ...keys.signupEmail(item.email), type: entityTypes.signupClaim, userId: item.id, createdAt: item.createdAt };
  await writeTogether(table, {
    user: putNewStep(item),
    claim: staleUserId
      ? { Put: { Item: claim, ConditionExpression: 'userId = :stale', ExpressionAttributeValues: { ':stale': staleUserId } } }
      : putNewStep(claim),
  });
}

/** The user that holds the sign-up claim on an e-mail, if any. */
export async function signupClaimHolder(table: Table, email: string): Promise<string | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.signupEmail(email), ConsistentRead: true }));
  return Item?.userId as string | undefined;
}

/** Transaction member: claims an e-mail inside an account, refused when another user has it. */
export function claimUserEmailStep(accountId: string, email: string, userId: string): PutStep {
  return putNewStep({ ...keys.userEmail(accountId, email), type: entityTypes.userEmail, userId });
}

/** The user holding an e-mail inside an account, if any. */
export async function userEmailHolder(table: Table, accountId: string, email: string): Promise<string | undefined> {
  const { Item } = await table.doc.send(new GetCommand({ TableName: table.name, Key: keys.userEmail(accountId, email), ConsistentRead: true }));
  return Item?.userId as string | undefined;
}

/** Transaction member: frees an e-mail inside an account. */
export function releaseUserEmailStep(accountId: string, email: string): DeleteStep {
  return deleteStep(keys.userEmail(accountId, email));
}

/** Transaction member: deletes a user item, refused when there is none. */
export function removeUserStep(user: UserRef): DeleteStep {
  return deleteExistingStep(keys.user(user.accountId, user.id));
}

/** Deletes users of an account with their e-mail guards, as many to a transaction as DynamoDB takes. */
export async function deleteAccountUsers(table: Table, accountId: string, users: Pick<UserItem, 'id' | 'email'>[]): Promise<void> {
  const perTransaction = maxTransactionMembers / 2;
  for (let i = 0; i < users.length; i += perTransaction) {
    const steps = users.slice(i, i + perTransaction).flatMap((u) => [
      [`user ${u.id}`, deleteStep(keys.user(accountId, u.id))],
      [`email ${u.id}`, releaseUserEmailStep(accountId, u.email)],
    ]);
    await writeTogether(table, Object.fromEntries(steps));
    await Promise.all(users.slice(i, i + perTransaction).map((u) => releaseSignupClaim(table, u.email, u.id)));
  }
}

/**
 * Frees an e-mail's sign-up claim if this user holds it (deleting the user). A claim left behind by
 * a crash in between is taken over by the next sign-up anyway (`putSignedUpUser`).
 */
export async function releaseSignupClaim(table: Table, email: string, userId: string): Promise<void> {
  await unlessConditionFails(
    table.doc.send(
      new DeleteCommand({
        TableName: table.name,
        Key: keys.signupEmail(email),
        ConditionExpression: 'userId = :id',
        ExpressionAttributeValues: { ':id': userId },
      }),
    ),
  );
}
