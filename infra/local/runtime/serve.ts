/** Runs the whole product locally until Ctrl-C, announcing where each part listens. */
// First: Powertools' settings, before any module that reads them.
import './telemetry-env.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { RuntimeOptions } from './runtime.ts';

export async function serve(options: Omit<RuntimeOptions, 'port' | 'host' | 'dataDir'> = {}): Promise<void> {
  // The old generation grows by at most 30% of what survived the last full collection, instead of
  // V8's up to 4× when collections look cheap: under load the heap otherwise fills with garbage to
  // several times the live set and keeps those pages afterwards (ADR-0136). Read at each collection, so setting it here, before any load, holds.
  // RUNTIME_V8_DEFAULTS=1 leaves it at V8's default, for measuring what it costs in throughput (a
  // quiet A/B of `npm run bench:load`).
  if (!process.env.RUNTIME_V8_DEFAULTS) setFlagsFromString('--heap-growing-percent=30');
  const port = Number(process.env.PORT ?? 3000);
  // Loaded here, not imported: in the bundle (scripts/runtime-bundle.mjs) the order of static imports
  // across chunks is not kept, but every one of them, telemetry-env.ts's included, has run by now.
  const { startLocalRuntime } = await import('./runtime.ts');
  const runtime = await startLocalRuntime({
    webDir: process.env.WEB_DIR,
    ...(process.env.RUNTIME_WORKER === 'off' ? { worker: false as const } : {}),
    ...options,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    dataDir: process.env.DATA_DIR,
  });
  console.log(`Conversa rodando em ${runtime.url.replace('127.0.0.1', 'localhost')}  (API em /api, tempo real em /ws, dados em ${runtime.dataDir})`);
  console.log(`DynamoDB local em ${process.env.AWS_ENDPOINT_URL_DYNAMODB} (tabela ${process.env.TABLE_NAME})`);
  console.log(`S3 local em ${process.env.AWS_ENDPOINT_URL_S3} (bucket ${process.env.BUCKET_NAME})`);
  console.log(
    `SQS local em ${process.env.AWS_ENDPOINT_URL_SQS} (fila de envios ${process.env.OUTBOUND_QUEUE_URL}, fila do worker ${process.env.WORKER_QUEUE_URL})`,
  );
  console.log(`Gerenciamento do WebSocket em ${process.env.WS_MANAGEMENT_URL}`);
  console.log(`E-mails (códigos de verificação e de senha) ficam em ${runtime.outboxDir} e aparecem aqui no console.`);

  await writeFile(join(runtime.dataDir, 'runtime.pid'), String(process.pid));

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      console.log('\nParando...');
      await runtime.stop();
      process.exit(0);
    });
  }
}
