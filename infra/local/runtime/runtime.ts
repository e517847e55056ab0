/**
 * The whole product on one machine: dynalite behind the DynamoDB front (transactions, streams,
 * TTL), a local S3 (s3rver), the SQS FIFO emulator, the HTTP API and WebSocket gateways calling
 * the same handler modules Lambda runs, and the built web app, all on one origin.
 */
// First: Powertools reads its settings when the handler modules' observability is first loaded.
import './telemetry-env.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createTableInput, tableShape } from '#db/table-definition.ts';
import type { StreamRecord } from '../emulators/dynamo-front.ts';
import { HttpGateway } from '../emulators/http-gateway.ts';
import { handlerOf, invokeHere } from './handler-modules.ts';
import { type RouteDispatcher, serveRoutesInProcess } from '#lib/route-table.ts';
import { TablePort } from './table-port.ts';
import { serveStatic } from './static-site.ts';
import { startS3Front } from '../emulators/s3-front.ts';
import { siteHeaders } from '../../site-headers.ts';
import { StreamEmulator } from '../emulators/stream-emulator.ts';
import { StreamPollers } from '../pollers/stream-poller.ts';
import { consumersOf, routerBatchSize, routerFilters, routerTimeoutSeconds, type StreamHandler, streamRouters } from '#functions/streams/consumers.ts';
import type { StreamRouter } from '#functions/streams/stream-router.ts';
import { SqsEmulator } from '../emulators/sqs-emulator.ts';
import { QueuePollers, type QueueSubscription } from '../pollers/queue-poller.ts';
import { queueConsumers, visibilityTimeoutSeconds } from '#functions/queues/consumers.ts';
import { WsGateway, type WsRoutes } from '../emulators/ws-gateway.ts';
import { webSocketRoutes } from '#functions/ws/routes.ts';
import { workerQueue } from '#functions/queues/worker-queue.ts';
import { runWorkerProcess, type WorkerProcessOptions } from '#connectors/worker-queue.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import { root, runtimeModuleFile, runtimeModuleUrl, threadEntry } from './runtime-modules.ts';

/** The region of this machine's stand-ins, as the functions are told. */
const region = 'us-east-1';
/**
 * The key pair the functions sign S3 requests with and the S3 front accepts: s3rver's well-known
 * pair, which the tests' own clients sign with too (docs/security.md, "The local runtime").
 */
const s3Credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface RuntimeOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  webDir?: string;
  tableName?: string;
  bucketName?: string;
  quiet?: boolean;
  /** The channel adapters; the worker's own (`workerChannels()`, sessions included) unless a test hands doubles. */
  channels?: readonly ChannelAdapter[];
  /** Settings of the channel worker (tests: a shorter send pace, shorter leases); false runs none (`RUNTIME_WORKER=off`: the API alone, its worker queue waiting). */
  worker?: Omit<WorkerProcessOptions, 'queueUrl' | 'workerId'> | false;
}

export interface LocalRuntime {
  url: string;
  outboxDir: string;
  dataDir: string;
  streams: StreamEmulator;
  /** The stream's two readers, by router name (a test attaches its own consumer to one: a third reader is refused). */
  routers: ReadonlyMap<string, StreamRouter>;
  queues: SqsEmulator;
  stop(): Promise<void>;
}

async function persistentSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    for (let i = 0; i < 100; i++) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  client.destroy();
}

export async function startLocalRuntime(options: RuntimeOptions = {}): Promise<LocalRuntime> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? join(root, '.data'));
  const webDir = resolve(options.webDir ?? join(root, 'web/dist'));
  const tableName = options.tableName ?? 'conversa';
  const bucketName = options.bucketName ?? 'conversa-media';
  const outboxDir = join(dataDir, 'outbox');
  await Promise.all(['dynamo', 's3', 'outbox', 'streams', 'sqs'].map((d) => mkdir(join(dataDir, d), { recursive: true })));

  // DynamoDB: dynalite and its front in a worker thread; clients talk to the front. Writes are
  // journaled under streams/ so a killed process comes back with whole writes and no stream
  // record lost (infra/local/emulators/change-log.ts, ADR-0112).
  const streamsDir = join(dataDir, 'streams');
  const streams = new StreamEmulator(streamsDir);
  // Lambda's stream mappings: the two routers reading the stream (stream-poller.ts).
  const streamPollers = new StreamPollers(streams);
  // The main thread's young generation is sized by `runtimeCommand`'s flag; V8 reads that flag
  // for every isolate created after and prefers it to a worker's own limits, so it is cleared
  // before the DynamoDB thread starts (ADR-0155).
  setFlagsFromString('--max-semi-space-size=0');
  const dynamo = new Worker(threadEntry('emulators/dynamo-worker'), {
    workerData: { path: join(dataDir, 'dynamo'), ttlAttribute: tableShape.ttlAttribute, streamsDir },
    // A young generation of 24 MB (semi-spaces of 8), half V8's default, for the process's peak;
    // a 12 MB one tripled this thread's scavenges: reads ran 30-50% slower (ADR-0136).
    resourceLimits: { maxYoungGenerationSizeMb: 24 },
  });
  type FromWorker = { type: string; url?: string; resumed?: { pending: StreamRecord[]; lastSequence: number } };
  const fromWorker = (type: string) =>
    new Promise<FromWorker>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === type) {
          dynamo.off('message', onMessage);
          resolve(m);
        }
      };
      dynamo.on('message', onMessage);
      dynamo.once('error', reject);
    });
  dynamo.on('message', (m: { type: string; records?: StreamRecord[] }) => {
    // A write's records together (dynamo-worker.ts): pushed in one go, a consumer gets them in one batch.
    if (m.type === 'records') for (const record of m.records!) streams.push(record);
  });
  const ready = await fromWorker('ready');
  const dynamoUrl = ready.url!;
  await ensureTable(dynamoUrl, tableName);
  dynamo.postMessage({ type: 'seedTtl', table: tableName });
  await fromWorker('seeded');

  // S3: s3rver's store under .data/s3 behind a front that takes only requests signed with the key
  // pair the functions get below (s3-front.ts: no anonymous listing or reading, presigned URLs
  // checked as S3 checks them); CORS open to the app's origin for presigned browser PUTs.
  const s3 = await startS3Front({
    directory: join(dataDir, 's3'),
    buckets: [
      {
        name: bucketName,
        configs: [
          `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`,
        ],
      },
    ],
    key: { ...s3Credentials, region, service: 's3' },
  });

  const ws = new WsGateway(Object.fromEntries(webSocketRoutes.map((r) => [r.routeKey, runtimeModuleFile(`functions/ws/${r.handler}`)])) as unknown as WsRoutes);
  const managementUrl = await ws.listenManagement();
  // `npm run bench:tenants` only: the WebSocket posts delivered, this thread's heap and the contact
  // directory (the accounts loaded), written to the file it names every second (the DynamoDB thread
  // writes its own, dynamo-worker.ts).
  const meterFile = process.env.BENCH_RUNTIME_METER;
  if (meterFile) {
    // The handlers' own directory (the bundle's chunks are shared): its views against its budget.
    const { contactDirectory } = await import('../../../shared/domain/contacts/contact-directory.ts');
    // How busy the one thread is (its event loop's utilisation since start) and how long a callback
    // waited for it in the last second (the delay histogram, reset every second): what a request
    // queues behind.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    setInterval(() => {
      const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      const directory = { ...contactDirectory.memory(), loaded: contactDirectory.loadedAccounts() };
      const { idle, active } = performance.eventLoopUtilization();
      const eventLoop = { idleMs: idle, activeMs: active, delayP99Ms: delay.percentile(99) / 1e6, delayMaxMs: delay.max / 1e6 };
      delay.reset();
      writeFileSync(meterFile, JSON.stringify({ at: Date.now(), heapUsed, heapTotal, external, arrayBuffers, ws: ws.delivered, directory, eventLoop }));
    }, 1000).unref();
  }

  // SQS: the emulator's queues, named after their consumers, and the channel worker's queue,
  // journaled under sqs/ so a restart loses no queued send (ADR-0112).
  const queues = new SqsEmulator({ journalDir: join(dataDir, 'sqs') });
  const sqsUrl = await queues.listen();
  const queueUrls = Object.fromEntries(
    queueConsumers.map((c) => [
      c.urlVariable,
      queues.createQueue(`${c.name}.fifo`, { visibilityTimeoutSeconds: visibilityTimeoutSeconds(c), maxReceiveCount: c.maxReceiveCount }),
    ]),
  );
  const workerQueueUrl = queues.createQueue(`${workerQueue.name}.fifo`, {
    visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds,
    maxReceiveCount: workerQueue.maxReceiveCount,
  });
  queueUrls[workerQueue.urlVariable] = workerQueueUrl;

  // What Lambda's environment would hold; the SDK reads the endpoints itself.
  Object.assign(process.env, {
    AWS_REGION: region,
    // The S3 front's key pair; dynalite accepts any.
    AWS_ACCESS_KEY_ID: s3Credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamoUrl,
    AWS_ENDPOINT_URL_S3: s3.url,
    AWS_ENDPOINT_URL_SQS: sqsUrl,
    ...queueUrls,
    TABLE_NAME: tableName,
    BUCKET_NAME: bucketName,
    S3_FORCE_PATH_STYLE: 'true',
    WS_MANAGEMENT_URL: managementUrl,
    JWT_SECRET: await persistentSecret(join(dataDir, 'jwt-secret')),
    DATA_KEY: await persistentSecret(join(dataDir, 'data-key')),
    MAIL_OUTBOX_DIR: outboxDir,
    // No webhook can reach this machine: the worker long-polls Telegram (unless told otherwise).
    TELEGRAM_MODE: process.env.TELEGRAM_MODE || 'polling',
  });

  // The composition root of this process: the functions' ports, with the worker's adapters (this
  // process hosts the worker too) or the ones a test asked for.
  const { defaultPorts, installChannels } = await import('../../../functions/lib/ports.ts');
  // The worker's own adapters only when no test hands doubles (they load the channels' libraries).
  installChannels(options.channels ?? (await import('../../../connectors/worker-channels.ts')).workerChannels());
  // This thread's table calls reach the DynamoDB thread by message, not over loopback HTTP (table-port.ts).
  defaultPorts().table.doc.config.requestHandler = new TablePort(dynamo);

  // The stream's two readers are the cloud's routers, the same module (functions/streams/router.ts),
  // loading the consumers' handlers in this thread (ADR-0192).
  const { streamRouter } = (await import(runtimeModuleUrl('functions/streams/router'))) as typeof import('../../../functions/streams/router.ts');
  const routers = new Map<string, StreamRouter>();
  const mappingFilters = new Map<StreamRouter, { count: number; filters: ReturnType<typeof routerFilters> }>();
  const filtersOf = (router: StreamRouter) => {
    let known = mappingFilters.get(router);
    if (known?.count !== router.routed.length) {
      known = { count: router.routed.length, filters: routerFilters(router.routed) };
      mappingFilters.set(router, known);
    }
    return known.filters;
  };
  for (const { name } of streamRouters) {
    const consumers = consumersOf(name);
    if (!consumers.length) continue;
    const router = streamRouter(name, async (consumer) => {
      const moduleUrl = runtimeModuleUrl(`functions/streams/${consumer.handler}`);
      return { handler: (await handlerOf(moduleUrl)) as StreamHandler };
    });
    await router.preload();
    routers.set(name, router);
    streamPollers.subscribe({
      name: `${name}-router`,
      handler: (event, context) => router.handle(event, context),
      batchSize: routerBatchSize(consumers),
      timeoutSeconds: routerTimeoutSeconds(consumers),
      // Its consumers' filters as the mapping's (a consumer a test attaches adds its own).
      filters: () => filtersOf(router),
      formerNames: consumers.map((c) => c.name),
    });
  }
  // What the consumers had not handled when the last process stopped (or was killed).
  streams.resume(ready.resumed?.pending ?? [], ready.resumed?.lastSequence ?? 0);
  // Lambda's SQS mappings: the queue consumers' handlers reading their queues (queue-poller.ts).
  const queuePollers = new QueuePollers(queues);
  for (const consumer of queueConsumers) {
    const handler = (await handlerOf(runtimeModuleUrl(`functions/queues/${consumer.handler}`))) as QueueSubscription['handler'];
    queuePollers.subscribe(`${consumer.name}.fifo`, {
      name: consumer.name,
      handler,
      batchSize: consumer.batchSize,
      timeoutSeconds: consumer.timeoutSeconds,
    });
  }

  // Purges of deleted accounts and contacts and exports of accounts that a stop interrupted: the
  // stream records that ran their next steps were in memory only, so each job is moved on once,
  // however recent its last step (ADR-0118).
  const { resumeAccountDeletions } = await import('../../../shared/domain/accounts/account-deletion.ts');
  const { resumeAccountExports } = await import('../../../shared/domain/accounts/account-export.ts');
  const { resumeContactPurges } = await import('../../../shared/domain/contacts/contact-purge.ts');
  const purges = (await resumeAccountDeletions(defaultPorts())) + (await resumeContactPurges(defaultPorts()));
  if (purges && !options.quiet) console.log(`[deletion] ${purges} exclusão(ões) retomada(s)`);
  const exports = await resumeAccountExports(defaultPorts());
  if (exports && !options.quiet) console.log(`[export] ${exports} exportação(ões) retomada(s)`);
  const { resumeContactImports } = await import('../../../shared/domain/contact-import/contact-import.ts');
  const imports = await resumeContactImports(defaultPorts());
  if (imports && !options.quiet) console.log(`[import] ${imports} importação(ões) de contatos retomada(s)`);

  // The conversation lifecycle's timers (menu timeout, 'no one answered', inactivity): the cloud's
  // one-minute rule is an interval here, and a first run at start fires what came due while the
  // runtime was stopped (ADR-0214). One run at a time. Scheduled messages come due on the same
  // poller (ADR-0224).
  const { fireDueTimers } = await import('../../../shared/domain/automations/fire-timers.ts');
  const { fireDueScheduledMessages } = await import('../../../shared/domain/scheduled-messages/fire-scheduled-messages.ts');
  let firing: Promise<unknown> | null = null;
  const fireTimers = () => {
    firing ??= Promise.all([fireDueTimers(defaultPorts()), fireDueScheduledMessages(defaultPorts())])
      .catch((error: unknown) => console.error('[timers] falha ao disparar os temporizadores', error))
      .finally(() => {
        firing = null;
      });
    return firing;
  };
  await fireTimers();
  const timerPoll = setInterval(fireTimers, Number(process.env.LIFECYCLE_TIMER_POLL_MS) || 60_000);
  timerPoll.unref();

  // The product for sale, read from Stripe into the table (ADR-0228): the cloud's 10-minute rule is
  // an interval here, with a first read at start so 'Minha Conta' shows the plan at once.
  const { refreshProducts } = await import('../../../shared/domain/billing/billing.ts');
  const refreshProductsNow = () =>
    refreshProducts(defaultPorts()).catch((error: unknown) => console.error('[payments] falha ao ler o produto no Stripe', error));
  await refreshProductsNow();
  const productsPoll = setInterval(refreshProductsNow, Number(process.env.PRODUCTS_REFRESH_MS) || 600_000);
  productsPoll.unref();

  // Outbound webhooks' retries (ADR-0233): the cloud's one-minute rule is an
  // interval here (WEBHOOK_RETRY_POLL_MS), with a first run at start for what came due while the
  // runtime was stopped. One run at a time.
  const { deliverDueWebhooks } = await import('../../../shared/domain/webhooks/deliver-webhooks.ts');
  let webhookRun: Promise<unknown> | null = null;
  const retryWebhooks = () => {
    webhookRun ??= deliverDueWebhooks(defaultPorts())
      .catch((error: unknown) => console.error('[webhooks] falha ao reenviar os webhooks', error))
      .finally(() => {
        webhookRun = null;
      });
    return webhookRun;
  };
  await retryWebhooks();
  const webhookPoll = setInterval(retryWebhooks, Number(process.env.WEBHOOK_RETRY_POLL_MS) || 60_000);
  webhookPoll.unref();

  // The campaigns' poller (ADR-0227): in the cloud a one-minute rule runs it for about a
  // minute each time; here runs follow one another, each covering CAMPAIGN_POLL_MS (a minute by
  // default). Stopping the runtime cuts the sleeps between sends short and ends the loop.
  const { runCampaigns } = await import('../../../shared/domain/campaigns/run-campaigns.ts');
  const campaignPollMs = Number(process.env.CAMPAIGN_POLL_MS) || 60_000;
  const campaignsStop = new AbortController();
  const campaignSleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (campaignsStop.signal.aborted) return reject(campaignsStop.signal.reason);
      // The abort listener goes with the sleep: one left per sleep piled up for the runtime's life.
      const timer = setTimeout(() => {
        campaignsStop.signal.removeEventListener('abort', abort);
        resolve();
      }, ms);
      const abort = () => {
        clearTimeout(timer);
        reject(campaignsStop.signal.reason);
      };
      campaignsStop.signal.addEventListener('abort', abort, { once: true });
    });
  const campaignLoop = (async () => {
    while (!campaignsStop.signal.aborted) {
      const until = Date.now() + campaignPollMs;
      await runCampaigns(defaultPorts(), {
        until,
        sleep: campaignSleep,
        onError: (at, error) => console.error(`[campaigns] campanha ${at.campaignId}${at.serviceId ? `, conexão ${at.serviceId}` : ''}: falha`, error),
      }).catch((error: unknown) => {
        if (!campaignsStop.signal.aborted) console.error('[campaigns] falha ao enviar as campanhas', error);
      });
      await campaignSleep(Math.max(0, until - Date.now())).catch(() => {});
    }
  })();

  // The channel worker in this process (sessions of Telegram long polling, WhatsApp sockets),
  // reading its queue as the Fargate task does: connection changes (from `notify-worker`), sends
  // of WhatsApp and logouts. One worker per data folder: a fixed owner id lets a restarted runtime
  // take its leases back at once.
  // As a worker of a fleet (ADR-0203): a queue of its own beside the
  // shared one, which it routes; other worker processes pointed at this runtime join the fleet.
  const fleet = { prefix: `${workerQueue.name}-`, visibilityTimeoutSeconds: workerQueue.visibilityTimeoutSeconds, settleMs: 100 };
  const worker =
    options.worker === false
      ? undefined
      : await runWorkerProcess(defaultPorts(), { fleet, ...options.worker, queueUrl: workerQueueUrl, workerId: 'local-runtime' });

  // Every route's handler in this thread, as the DynamoDB thread answers their table calls
  // (ADR-0197).
  const gateway = new HttpGateway((route, event, functionName) => invokeHere(runtimeModuleUrl(`functions/http/${route.handler}`), event, functionName));
  // The read batch's GETs (POST /api/batch) run in this thread through each route's module, as the
  // gateway calls them; in the cloud the function's route table does this (functions/lib/route-table.ts).
  serveRoutesInProcess((event) => gateway.invokeRouteKey(event) as ReturnType<RouteDispatcher>);
  // The headers CloudFront adds to every answer (infra/site-headers.ts), on every answer here too;
  // the CSP allows this machine's S3 and hashes the served shell's inline scripts.
  const shell = join(webDir, 'index.html');
  const securityHeaders = siteHeaders({
    mediaOrigin: s3.url,
    shellHtml: existsSync(shell) ? readFileSync(shell, 'utf8') : '',
    https: false,
    // Meta's SDK only where a Meta app is set for Embedded Signup (functions/lib/meta-app.ts), as in the cloud.
    metaSdk: Boolean(process.env.META_APP_ID && process.env.META_CONFIG_ID),
  });
  const server: Server = createServer(async (req, res) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    try {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/api' || path.startsWith('/api/')) {
        await gateway.serve(req, res);
      } else {
        await serveStatic(webDir, req, res);
      }
    } catch (error) {
      console.error('[server]', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    }
  });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] === '/ws') void ws.upgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((r) => server.listen(options.port ?? 3000, host, r));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  process.env.APP_URL ??= url;
  // Webhook mode on this machine (tests of the cloud path): Telegram, or its stand-in, posts here.
  process.env.TELEGRAM_WEBHOOK_BASE_URL ??= url;
  // A WhatsApp (API oficial) connection on the operator's Meta app gets its WABA's webhook override to this origin.
  process.env.WHATSAPP_CLOUD_WEBHOOK_BASE_URL ??= url;

  let stopped = false;
  return {
    url,
    outboxDir,
    dataDir,
    streams,
    routers,
    queues,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timerPoll);
      clearInterval(productsPoll);
      clearInterval(webhookPoll);
      await webhookRun;
      await firing;
      campaignsStop.abort(new Error('runtime stopping'));
      await campaignLoop;
      await worker?.stop();
      server.closeAllConnections();
      await ws.close();
      await new Promise<void>((r) => server.close(() => r()));
      await streamPollers.idle();
      await queuePollers.close();
      await queues.close();
      await streamPollers.idle();
      dynamo.postMessage({ type: 'stop' });
      await fromWorker('stopped');
      await dynamo.terminate();
      await s3.close();
    },
  };
}
