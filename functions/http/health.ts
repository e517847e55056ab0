/** GET /health: public; the channel workers' count and freshest beat, no tenant data (ADR-0195). */
import { workerHealth } from '#domain/operations/worker-health.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'public' }).handler(async ({ ports }) => ok({ workers: await workerHealth(ports) }));
