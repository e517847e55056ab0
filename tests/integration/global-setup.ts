import type { TestProject } from 'vitest/node';
import { startFakeChannel } from '../support/fake-channel.ts';
import { spawnLocalRuntime } from '../support/local-runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    outboxDir: string;
    dynamoUrl: string;
    tableName: string;
    wsManagementUrl: string;
    s3Url: string;
    bucketName: string;
    dataDir: string;
    fakeChannelUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const fakeChannel = await startFakeChannel();
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fakeChannel.url });
  project.provide('baseUrl', runtime.url);
  project.provide('outboxDir', runtime.outboxDir);
  project.provide('dynamoUrl', runtime.dynamoUrl);
  project.provide('tableName', runtime.tableName);
  project.provide('wsManagementUrl', runtime.wsManagementUrl);
  project.provide('s3Url', runtime.s3Url);
  project.provide('bucketName', runtime.bucketName);
  project.provide('dataDir', runtime.dataDir);
  project.provide('fakeChannelUrl', fakeChannel.url);
  return async () => {
    await runtime.stop();
    await fakeChannel.close();
  };
}
