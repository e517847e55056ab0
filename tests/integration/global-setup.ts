import type { TestProject } from 'vitest/node';
import { spawnLocalRuntime } from '../support/local-runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    outboxDir: string;
    dynamoUrl: string;
    tableName: string;
    wsManagementUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const runtime = await spawnLocalRuntime();
  project.provide('baseUrl', runtime.url);
  project.provide('outboxDir', runtime.outboxDir);
  project.provide('dynamoUrl', runtime.dynamoUrl);
  project.provide('tableName', runtime.tableName);
  project.provide('wsManagementUrl', runtime.wsManagementUrl);
  return () => runtime.stop();
}
