/**
 * The infra project's global set-up: synthesises each stage's app once, as `cdk synth -c stage=<stage>`
 * does (both stacks, `defineConversa`; bundling skipped, the site fixture), into a temporary cloud
 * assembly, and writes the main stack's whole template (nested stacks merged) beside it. The test
 * files read these through `infra/test-support/stage-templates.ts` instead of each synthesising the
 * same app again; a test that needs other context (a variant) still synthesises its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { TestProject } from 'vitest/node';
import { defineConversa } from '../conversa-app.ts';
import { stages } from '../stage.ts';
import { cdkContext } from './cdk-context.ts';
import { siteFixture } from './site-fixture.ts';
import { type StageFiles, stageFilesName } from './stage-templates.ts';
import { wholeTemplate } from './whole-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding one cloud assembly per stage (infra/test-support/synth-stages.ts). */
    infraSynthDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'conversa-infra-synth-'));
  for (const stage of stages) {
    const outdir = join(dir, stage);
    const app = new App({ outdir, context: { ...cdkContext, 'aws:cdk:bundling-stacks': [], stage } });
    const { edge, main } = defineConversa(app, { siteAssetPath: siteFixture });
    app.synth();
    const files: StageFiles = { edge: edge.templateFile, wholeMain: 'whole-main.json' };
    writeFileSync(join(outdir, files.wholeMain), JSON.stringify(wholeTemplate(main).toJSON()));
    writeFileSync(join(outdir, stageFilesName), JSON.stringify(files));
  }
  project.provide('infraSynthDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
