/**
 * What the WhatsApp (API oficial) integration files with a movable clock share: the Graph API
 * double (its own clock from `start`; `windowErrors: 'sync'`, so a send outside Meta's window is
 * refused at once with 131047) started before the file's own runtime, which calls it through
 * `WHATSAPP_CLOUD_GRAPH_URL`, and the runtime's clock set apart from this process's.
 */
import { afterAll, beforeAll } from 'vitest';
import { whatsappCloudChannel } from '#connectors/whatsapp-cloud/adapter.ts';
import { type FakeGraphApi, startFakeGraphApi } from '../support/fake-graph-api.ts';
import { type OwnRuntime, ownRuntime } from './own-runtime.ts';

export interface CloudGraphWorld {
  /** The Graph API double (started in the file's `beforeAll`). */
  fake(): FakeGraphApi;
  own: OwnRuntime;
  /** Sets the server's clock to `ms`, running on from there (the double's clock is moved on its own). */
  serverClockAt(ms: number): void;
}

export function cloudGraphWorld(dataDirPrefix: string, options: { appSecret: string; start: number }): CloudGraphWorld {
  let fake: (FakeGraphApi & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    fake = await startFakeGraphApi({ appSecret: options.appSecret, now: options.start, windowErrors: 'sync' });
    process.env.WHATSAPP_CLOUD_GRAPH_URL = fake.url;
  });
  afterAll(async () => {
    await fake?.close();
  });
  const own = ownRuntime(dataDirPrefix, { channels: [whatsappCloudChannel], worker: false });
  return {
    fake: () => fake!,
    own,
    serverClockAt(ms) {
      const since = Date.now();
      own.ports().clock = () => new Date(ms + Date.now() - since);
    },
  };
}
