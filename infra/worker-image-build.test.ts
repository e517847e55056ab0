/**
 * The channel worker's image build (connectors/Dockerfile), replayed step by step without a
 * container engine (scripts/replay-docker-build.mjs): the context CDK stages, a clean folder for
 * the container's root, an empty HOME and no npm config but the project's. A build that `cdk
 * deploy` would fail (npm rewriting the lock file, a file the context leaves out, the bundle not
 * where the runtime stage takes it) fails here.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapPaths, parseDockerfile, replayBuild, replayTmpDir, stageWorkerContext, stagesOf } from '../scripts/replay-docker-build.mjs';
import { workerDockerfile } from './constructs/channel-worker.ts';

const root = new URL('..', import.meta.url).pathname;
const workDir = mkdtempSync(join(replayTmpDir, 'worker-image-'));
// An npm install of the whole lock file (about 600 packages): slow to delete on a busy disk.
afterAll(() => rm(workDir, { recursive: true, force: true }), 300_000);

describe('the worker image build, replayed', () => {
  it('reads the Dockerfile as a build stage and a runtime stage, and moves only the container’s paths', () => {
    const stages = stagesOf(parseDockerfile(readFileSync(join(root, workerDockerfile), 'utf8')));
    expect(stages.map((s) => s.name)).toEqual(['build', '1']);
    expect(stages[0]!.instructions.some((i) => i.keyword === 'RUN' && i.args.includes('npm install') && i.args.includes('cmp package-lock.json'))).toBe(true);
    expect(mapPaths('cp a /tmp/a && /usr/bin/env node x --outdir /out', '/r')).toBe('cp a /r/tmp/a && /usr/bin/env node x --outdir /r/out');
  });

  it('installs the locked dependencies without npm changing the lock file, and bundles main.mjs where the image takes it', async () => {
    const contextDir = await stageWorkerContext(join(workDir, 'cdk.out'));
    expect(existsSync(join(contextDir, 'node_modules'))).toBe(false);
    const { appDir } = await replayBuild({ contextDir, dockerfile: workerDockerfile, workDir: join(workDir, 'build') });
    expect(existsSync(join(appDir, 'main.mjs'))).toBe(true);
    // About 30 s on a quiet machine (the npm install from a warm cache); a shared one is slower.
  }, 300_000);
});
