/**
 * A DynamoDB wire-compatible front for dynalite. dynalite speaks the DynamoDB JSON protocol but has
 * no transactions, no streams and no TTL; this front supplies them behind the same SDK calls the
 * cloud code makes:
 *
 * - every write (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems) runs in one
 *   serialised lane, so a transaction's checks and writes are atomic with respect to other writes;
 * - TransactWriteItems applies its operations in order and, if one fails, restores the items it
 *   already wrote and answers TransactionCanceledException with CancellationReasons, as AWS does;
 * - every change produces a DynamoDB Streams record (INSERT / MODIFY / REMOVE, old and new images)
 *   handed to `onRecord` in commit order;
 * - items whose TTL attribute lies in the past are deleted by a sweeper, with the REMOVE record
 *   marked as a service deletion, as AWS marks TTL deletions;
 * - with a `journal` (the local runtime's `ChangeLog`), each write's before-images are stored before
 *   it changes anything and its stream records before it is answered, so a killed process is
 *   rolled back to whole writes on start (`recover`) and no committed change misses its record.
 *   Records reach `onRecord` only once their write is complete.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { CapacityMeter } from './capacity-meter.ts';

type AttributeMap = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: DynamoDB's JSON wire protocol, forwarded between SDK and dynalite without a schema of its own
type Json = Record<string, any>;

export interface StreamRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventVersion: '1.1';
  eventSource: 'aws:dynamodb';
  awsRegion: string;
  eventSourceARN: string;
  userIdentity?: { type: 'Service'; principalId: 'dynamodb.amazonaws.com' };
  dynamodb: {
    ApproximateCreationDateTime: number;
    Keys: AttributeMap;
    NewImage?: AttributeMap;
    OldImage?: AttributeMap;
    SequenceNumber: string;
    SizeBytes: number;
    StreamViewType: 'NEW_AND_OLD_IMAGES';
  };
}

/** Where a write's before-images and stream records are kept until it is complete (infra/local/emulators/change-log.ts). */
export interface WriteJournal {
  begin(items: { table: string; key: AttributeMap; before?: AttributeMap }[]): void;
  append(record: StreamRecord): void;
  commit(): void;
  nextSequence(): number;
}

/** dynalite answering one call in-process, as its server would (infra/local/emulators/dynalite-direct.ts). */
export type DynamoBackend = (op: string, body: Json) => Promise<{ status: number; body: Json }>;

export interface DynamoFrontOptions {
  /** Where dynalite listens, when `backend` is not given. */
  backendUrl?: string;
  /** dynalite in-process: no HTTP round trip per call. */
  backend?: DynamoBackend;
  region?: string;
  ttlAttribute?: string;
  sweepEveryMs?: number;
  onRecord?: (record: StreamRecord) => void;
  journal?: WriteJournal;
  /** Counts the calls and the capacity units DynamoDB would bill for them (`npm run bench:tenants` only). */
  meter?: CapacityMeter;
}

/** A call's answer: its HTTP status, its JSON text and its request id. */
export interface FrontAnswer {
  status: number;
  text: string;
  requestId: string;
}

/** The TTL index's file in the data folder, beside the database's own folder. */
export const ttlIndexFileName = 'dynamo-ttl.json';

/** The TTL index as saved between runs: `clean` once written by a clean stop (or by a seeder that wrote the table from empty). */
export interface SavedTtlIndex {
  clean: boolean;
  entries: { table: string; key: AttributeMap; expiresAt: number }[];
}

class DynamoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
    readonly extra: Json = {},
  ) {
    super(message);
  }
}

/** dynalite's error answer as the error the front answers with. */
function dynamoError(status: number, json: Json): DynamoError {
  const type = String(json.__type ?? 'InternalServerError')
    .split('#')
    .pop()!;
  const { __type, message, Message, ...extra } = json;
  void __type;
  return new DynamoError(type, String(message ?? Message ?? type), status, extra);
}

export class DynamoFront {
  private server?: Server;
  private lane: Promise<unknown> = Promise.resolve();
  private keySchemas = new Map<string, string[]>();
  private sequence = 0;
  private streamSequence = 0;
  /** Records of the write in progress, handed to `onRecord` once it is complete. */
  private pending: StreamRecord[] = [];
  private ttlIndex = new Map<string, { table: string; key: AttributeMap; expiresAt: number }>();
  private sweeper?: NodeJS.Timeout;
  private readonly region: string;
  private readonly ttlAttribute: string;

  constructor(private readonly options: DynamoFrontOptions) {
    this.region = options.region ?? 'us-east-1';
    this.ttlAttribute = options.ttlAttribute ?? 'ttl';
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const { port: bound } = this.server.address() as AddressInfo;
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepEveryMs ?? 5_000);
    this.sweeper.unref();
    return `http://${host}:${bound}`;
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.lane.catch(() => undefined);
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * Loads the TTL index saved by the last clean stop (`saveTtlIndex`), and marks the file unclean
   * until the next clean stop: after a crash the index may miss items, so the next start scans.
   * Answers false (nothing loaded) when there is no clean index to load.
   */
  async loadTtlIndex(file: string): Promise<boolean> {
    let saved: SavedTtlIndex;
    try {
      saved = JSON.parse(await readFile(file, 'utf8')) as SavedTtlIndex;
    } catch {
      return false;
    }
    await writeFile(file, JSON.stringify({ clean: false, entries: [] } satisfies SavedTtlIndex));
    if (!saved.clean) return false;
    for (const entry of saved.entries) this.ttlIndex.set(`${entry.table}|${JSON.stringify(entry.key)}`, entry);
    return true;
  }

  /** Saves the TTL index for the next start (after `close`, when nothing writes any more). */
  async saveTtlIndex(file: string): Promise<void> {
    await writeFile(file, JSON.stringify({ clean: true, entries: [...this.ttlIndex.values()] } satisfies SavedTtlIndex));
  }

  /**
   * Seeds the TTL index from what is already stored: a Scan of the whole table, run at start-up
   * when no clean saved index exists (it weighed about 115 MB of RSS and seconds of start-up at
   * 130,000 items: ADR-0136).
   */
  async seedTtlIndex(tableName: string): Promise<void> {
    let ExclusiveStartKey: Json | undefined;
    do {
      const page: Json = await this.backend('Scan', {
        TableName: tableName,
        FilterExpression: 'attribute_exists(#t)',
        ExpressionAttributeNames: { '#t': this.ttlAttribute },
        ExclusiveStartKey,
      });
      for (const item of page.Items ?? []) await this.trackTtl(tableName, item);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await this.answer(String(req.headers['x-amz-target'] ?? ''), Buffer.concat(chunks).toString('utf8'), req.headers);
    res.writeHead(answer.status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(answer.text),
      'x-amzn-requestid': answer.requestId,
    });
    res.end(answer.text);
  }

  /**
   * One call as a client sends it (its `X-Amz-Target` header and JSON body), answered as this
   * front's HTTP server answers it: the status, the JSON text and the request id. The server uses
   * it, and so does the local runtime's table port, which hands calls over by message
   * (infra/local/runtime/table-port.ts).
   */
  async answer(target: string, text: string, headers: IncomingMessage['headers'] = {}): Promise<FrontAnswer> {
    const requestId = `local-${++this.sequence}`;
    const reply = (status: number, body: Json): FrontAnswer => ({ status, text: JSON.stringify(body), requestId });
    const op = target.split('.')[1] ?? '';
    this.options.meter?.call(op);
    let body: Json;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return reply(400, { __type: 'com.amazon.coral.service#SerializationException', message: 'Bad JSON' });
    }
    try {
      return reply(200, await this.dispatch(op, body, headers));
    } catch (error) {
      if (error instanceof DynamoError) {
        return reply(error.status, { __type: `com.amazonaws.dynamodb.v20120810#${error.type}`, message: error.message, ...error.extra });
      }
      return reply(500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) });
    }
  }

  private dispatch(op: string, body: Json, headers: IncomingMessage['headers']): Promise<Json> {
    switch (op) {
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return this.serial(() => this.write(op, body));
      case 'BatchWriteItem':
        return this.serial(() => this.batchWrite(body));
      case 'TransactWriteItems':
        return this.serial(() => this.exclusive(() => this.transactWrite(body)));
      case 'TransactGetItems':
        return this.isolatedRead(() => this.transactGet(body));
      default:
        // The body was parsed from this request alone, and its answer is only sent: no copies.
        return this.isolatedRead(() => (this.options.meter ? this.meteredRead(op, body, headers) : this.backend(op, body, headers, true)));
    }
  }

  /**
   * A read, never while a transaction is being applied. A transaction's items are written one by
   * one and put back if one of its conditions fails; DynamoDB never shows a read a transaction's
   * partial or cancelled writes, and a read that saw one here (a message of a refused campaign
   * send) could write it back as if it had been stored.
   */
  private async isolatedRead<T>(read: () => Promise<T>): Promise<T> {
    while (this.transaction) await this.transaction;
    this.readsInFlight++;
    try {
      return await read();
    } finally {
      if (--this.readsInFlight === 0) this.readsDrained?.();
    }
  }

  /** Runs a transaction once the reads in flight have answered, with no read starting until it is done. */
  private async exclusive<T>(task: () => Promise<T>): Promise<T> {
    let done!: () => void;
    this.transaction = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      if (this.readsInFlight) await new Promise<void>((resolve) => (this.readsDrained = resolve));
      this.readsDrained = null;
      return await task();
    } finally {
      this.transaction = null;
      done();
    }
  }

  /** A read passed to dynalite, its units counted from what it answered (the request's flags read first: dynalite edits the body). */
  private async meteredRead(op: string, body: Json, headers: IncomingMessage['headers']): Promise<Json> {
    const { ConsistentRead, FilterExpression, ProjectionExpression, Select, AttributesToGet, RequestItems } = body;
    const request = { ConsistentRead, FilterExpression, ProjectionExpression, Select, AttributesToGet, RequestItems: structuredClone(RequestItems) };
    const answer = await this.backend(op, body, headers, true);
    this.options.meter!.read(op, request, answer);
    return answer;
  }

  /** Runs `task` after every write queued before it; its records go out once it is complete. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const complete = async () => {
      try {
        return await task();
      } finally {
        this.options.journal?.commit();
        for (const record of this.pending.splice(0)) this.options.onRecord?.(record);
      }
    };
    const run = this.lane.then(complete, complete);
    this.lane = run.catch(() => undefined);
    return run;
  }

  /**
   * Puts back the items of a write a killed process left half-done (its journal's intent), before
   * anything else reads or writes.
   */
  async recover(items: readonly { table: string; key: AttributeMap; before?: AttributeMap }[]): Promise<void> {
    for (const { table, key, before } of items) {
      if (before) await this.backend('PutItem', { TableName: table, Item: before });
      else await this.backend('DeleteItem', { TableName: table, Key: key });
    }
  }

  /**
   * One call to dynalite. `owned`: `body` is not used after the call and the answer is only sent
   * on, so the in-process backend takes and answers them as they are; otherwise they are copied, as
   * the HTTP hop copies them (dynalite's validation edits the body it is given, and the front keeps
   * items it read as stream images).
   */
  private async backend(op: string, body: Json, headers: IncomingMessage['headers'] = {}, owned = false): Promise<Json> {
    let status: number;
    let json: Json;
    if (this.options.backend) {
      const answer = await this.options.backend(op, owned ? body : (JSON.parse(JSON.stringify(body)) as Json));
      status = answer.status;
      json = owned || status !== 200 ? answer.body : (JSON.parse(JSON.stringify(answer.body)) as Json);
    } else {
      const res = await fetch(this.options.backendUrl!, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDB_20120810.${op}`,
          authorization: String(
            headers.authorization ?? 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          ),
          'x-amz-date': String(headers['x-amz-date'] ?? '20200101T000000Z'),
        },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      status = res.status;
      json = text ? (JSON.parse(text) as Json) : {};
    }
    if (status < 200 || status > 299) throw dynamoError(status, json);
    return json;
  }

  private async keyNames(table: string): Promise<string[]> {
    let names = this.keySchemas.get(table);
    if (!names) {
      const described = await this.backend('DescribeTable', { TableName: table });
      names = (described.Table.KeySchema as { AttributeName: string }[]).map((k) => k.AttributeName);
      this.keySchemas.set(table, names);
    }
    return names;
  }

  private async keyOf(table: string, item: AttributeMap): Promise<AttributeMap> {
    const names = await this.keyNames(table);
    return Object.fromEntries(names.map((n) => [n, item[n]]));
  }

  /** Reads at the backend now, and the transaction being applied, which new reads wait for (`isolatedRead`). */
  private readsInFlight = 0;
  private readsDrained: (() => void) | null = null;
  private transaction: Promise<void> | null = null;

  private async getItem(table: string, key: AttributeMap): Promise<AttributeMap | undefined> {
    const got = await this.backend('GetItem', { TableName: table, Key: key, ConsistentRead: true });
    return got.Item as AttributeMap | undefined;
  }

  /** One item's write; `billedAs`: the call it is part of, for the meter (a batch's items). */
  private async write(op: string, body: Json, billedAs = op): Promise<Json> {
    const table = String(body.TableName);
    const key = op === 'PutItem' ? await this.keyOf(table, body.Item ?? {}) : (body.Key as AttributeMap);
    const before = key ? await this.getItem(table, key) : undefined;
    this.options.journal?.begin([{ table, key, before }]);
    let answer: Json;
    try {
      answer = await this.backend(op, body);
    } catch (error) {
      if (error instanceof DynamoError && error.type === 'ConditionalCheckFailedException') this.options.meter?.failedWrite(billedAs, before, false);
      throw error;
    }
    const after = op === 'DeleteItem' ? undefined : op === 'PutItem' ? (body.Item as AttributeMap) : await this.getItem(table, key);
    this.options.meter?.write(billedAs, before, after, false);
    await this.changed(table, key, before, after);
    return answer;
  }

  private async batchWrite(body: Json): Promise<Json> {
    for (const [table, requests] of Object.entries(body.RequestItems ?? {}) as [string, Json[]][]) {
      for (const request of requests) {
        if (request.PutRequest) await this.write('PutItem', { TableName: table, Item: request.PutRequest.Item }, 'BatchWriteItem');
        else if (request.DeleteRequest) await this.write('DeleteItem', { TableName: table, Key: request.DeleteRequest.Key }, 'BatchWriteItem');
      }
    }
    return { UnprocessedItems: {} };
  }

  private async transactGet(body: Json): Promise<Json> {
    const items = (body.TransactItems ?? []) as Json[];
    const responses = [];
    for (const { Get } of items) {
      const got = await this.backend('GetItem', {
        TableName: Get.TableName,
        Key: Get.Key,
        ConsistentRead: true,
        ProjectionExpression: Get.ProjectionExpression,
        ExpressionAttributeNames: Get.ExpressionAttributeNames,
      });
      responses.push(got.Item ? { Item: got.Item } : {});
    }
    this.options.meter?.transactRead(responses.map((r) => r.Item as AttributeMap | undefined));
    return { Responses: responses };
  }

  private async transactWrite(body: Json): Promise<Json> {
    const items = (body.TransactItems ?? []) as Json[];
    if (items.length === 0 || items.length > 100) {
      throw new DynamoError('ValidationException', 'Member must have length between 1 and 100');
    }
    const seen = new Set<string>();
    const parsed = [];
    for (const entry of items) {
      const kind = Object.keys(entry)[0] as 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
      const request = entry[kind] as Json;
      const table = String(request.TableName);
      const key = kind === 'Put' ? await this.keyOf(table, request.Item ?? {}) : (request.Key as AttributeMap);
      const id = `${table}|${JSON.stringify(key)}`;
      if (seen.has(id)) {
        throw new DynamoError('ValidationException', 'Transaction request cannot include multiple operations on one item');
      }
      seen.add(id);
      parsed.push({ table, key, kind, request });
    }
    // The items as they were, read together (nothing else writes while the lane is held).
    const befores = await Promise.all(parsed.map((op) => this.getItem(op.table, op.key)));
    const ops: { table: string; key: AttributeMap; before?: AttributeMap; kind: string; request: Json }[] = parsed.map((op, i) => ({
      ...op,
      before: befores[i],
    }));
    this.options.journal?.begin(ops.map(({ table, key, before }) => ({ table, key, before })));

    // The operations touch distinct items, so they are applied together: each condition is judged
    // on the items as they were, and every failed one is reported, as DynamoDB does.
    const outcomes = await Promise.allSettled(ops.map((op) => this.applyInTransaction(op)));
    const reasons: Json[] = ops.map(() => ({ Code: 'None' }));
    let failure: DynamoError | undefined;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') return;
      const { request, before } = ops[i]!;
      const error = outcome.reason instanceof DynamoError ? outcome.reason : new DynamoError('InternalServerError', String(outcome.reason), 500);
      failure ??= error;
      reasons[i] =
        error.type === 'ConditionalCheckFailedException'
          ? {
              Code: 'ConditionalCheckFailed',
              Message: 'The conditional request failed',
              ...(request.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && before ? { Item: before } : {}),
            }
          : { Code: 'ValidationError', Message: error.message };
    });

    if (failure) {
      for (const op of ops) this.options.meter?.failedWrite('TransactWriteItems', op.before, true);
      // Every item the transaction changed goes back as it was.
      await Promise.all(
        ops
          .filter((_, i) => outcomes[i]!.status === 'fulfilled')
          .map(({ table, key, before }) =>
            before ? this.backend('PutItem', { TableName: table, Item: before }) : this.backend('DeleteItem', { TableName: table, Key: key }),
          ),
      );
      if (failure.type !== 'ConditionalCheckFailedException' && failure.type !== 'ValidationException') throw failure;
      throw new DynamoError(
        'TransactionCanceledException',
        `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
        400,
        { CancellationReasons: reasons },
      );
    }

    const afters = await Promise.all(
      ops.map((op) =>
        op.kind === 'ConditionCheck' || op.kind === 'Delete'
          ? undefined
          : op.kind === 'Put'
            ? (op.request.Item as AttributeMap)
            : this.getItem(op.table, op.key),
      ),
    );
    for (const [i, op] of ops.entries()) {
      // A condition check is billed as a write of the item it checks, which it leaves as it was.
      if (op.kind === 'ConditionCheck') this.options.meter?.conditionCheck('TransactWriteItems', op.before);
      else this.options.meter?.write('TransactWriteItems', op.before, afters[i], true);
      if (op.kind !== 'ConditionCheck') await this.changed(op.table, op.key, op.before, afters[i]);
    }
    return {};
  }

  /** One operation of a transaction, on its own item. */
  private async applyInTransaction({ kind, request, before }: { kind: string; request: Json; before?: AttributeMap }): Promise<void> {
    const { ReturnValuesOnConditionCheckFailure, ...single } = request;
    void ReturnValuesOnConditionCheckFailure;
    if (kind === 'Put') await this.backend('PutItem', single);
    else if (kind === 'Update') await this.backend('UpdateItem', single);
    else if (kind === 'Delete') await this.backend('DeleteItem', single);
    else {
      // A condition check: evaluate the condition with a write that changes nothing, then remove
      // the bare key item that UpdateItem leaves when none existed.
      await this.backend('UpdateItem', {
        TableName: request.TableName,
        Key: request.Key,
        ConditionExpression: request.ConditionExpression,
        ExpressionAttributeNames: request.ExpressionAttributeNames,
        ExpressionAttributeValues: request.ExpressionAttributeValues,
      });
      if (!before) await this.backend('DeleteItem', { TableName: request.TableName, Key: request.Key });
    }
  }

  private async changed(table: string, key: AttributeMap, before?: AttributeMap, after?: AttributeMap, byService = false): Promise<void> {
    if (after) await this.trackTtl(table, after);
    else this.ttlIndex.delete(`${table}|${JSON.stringify(key)}`);
    if (!before && !after) return;
    if (before && after && isDeepStrictEqual(before, after)) return;
    const eventName = !before ? 'INSERT' : !after ? 'REMOVE' : 'MODIFY';
    const sequence = String(this.options.journal ? this.options.journal.nextSequence() : ++this.streamSequence).padStart(21, '0');
    const record: StreamRecord = {
      eventID: `local-${sequence}`,
      eventName,
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: this.region,
      eventSourceARN: `arn:aws:dynamodb:${this.region}:000000000000:table/${table}/stream/local`,
      ...(byService ? { userIdentity: { type: 'Service' as const, principalId: 'dynamodb.amazonaws.com' as const } } : {}),
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: key,
        ...(after ? { NewImage: after } : {}),
        ...(before ? { OldImage: before } : {}),
        SequenceNumber: sequence,
        SizeBytes: JSON.stringify(after ?? before).length,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    };
    this.options.journal?.append(record);
    this.pending.push(record);
  }

  private async trackTtl(table: string, item: AttributeMap): Promise<void> {
    const ttl = item[this.ttlAttribute] as { N?: string } | undefined;
    const key = await this.keyOf(table, item);
    const id = `${table}|${JSON.stringify(key)}`;
    if (ttl?.N) this.ttlIndex.set(id, { table, key, expiresAt: Number(ttl.N) });
    else this.ttlIndex.delete(id);
  }

  /** Deletes items whose TTL has passed, as DynamoDB's background TTL process does. */
  async sweep(now = Date.now() / 1000): Promise<number> {
    const due = [...this.ttlIndex.values()].filter((e) => e.expiresAt <= now);
    let removed = 0;
    for (const entry of due) {
      await this.serial(async () => {
        const before = await this.getItem(entry.table, entry.key);
        const ttl = Number((before?.[this.ttlAttribute] as { N?: string } | undefined)?.N ?? NaN);
        if (!before || !(ttl <= now)) return;
        this.options.journal?.begin([{ table: entry.table, key: entry.key, before }]);
        await this.backend('DeleteItem', { TableName: entry.table, Key: entry.key });
        removed++;
        await this.changed(entry.table, entry.key, before, undefined, true);
      });
    }
    return removed;
  }
}
