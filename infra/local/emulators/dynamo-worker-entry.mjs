// Worker entry: Node 20 does not carry tsx's loader into worker threads, so register it here first.
import { register } from 'tsx/esm/api';

register();
await import('./dynamo-worker.ts');
