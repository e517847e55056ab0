/**
 * The templates of each stage's app, synthesised once for the whole infra project by
 * `infra/test-support/synth-stages.ts` (its global set-up) and read here, once per test file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import type { StageName } from '../stage.ts';

/** The file, in each stage's assembly, naming the stacks' template files. */
export const stageFilesName = 'stage-files.json';

export interface StageFiles {
  readonly edge: string;
  /** The main stack with its nested stacks merged in (`wholeTemplate`); not a `.template.json`, so not one CloudFormation reads. */
  readonly wholeMain: string;
}

export interface StageTemplates {
  /** `ConversaEdge-<stage>`. */
  readonly edge: Template;
  /** `Conversa-<stage>` with its nested stacks merged in (infra/test-support/whole-template.ts). */
  readonly main: Template;
  /** The cloud assembly folder, as `cdk synth` writes it (templates, staged assets). */
  readonly assemblyDir: string;
  /** Every CloudFormation template of the stage, as `cdk synth` writes them: edge, main and the nested ones. */
  readonly templateFiles: string[];
}

const loaded = new Map<StageName, StageTemplates>();

/** The stage's templates (dev unless named), read from the assembly the global set-up wrote. */
export function stageTemplates(stage: StageName = 'dev'): StageTemplates {
  const known = loaded.get(stage);
  if (known) return known;
  const assemblyDir = join(inject('infraSynthDir'), stage);
  const read = (file: string) => JSON.parse(readFileSync(join(assemblyDir, file), 'utf8'));
  const files = read(stageFilesName) as StageFiles;
  const templates: StageTemplates = {
    edge: Template.fromJSON(read(files.edge)),
    main: Template.fromJSON(read(files.wholeMain)),
    assemblyDir,
    templateFiles: readdirSync(assemblyDir)
      .filter((file) => file.endsWith('.template.json'))
      .map((file) => join(assemblyDir, file)),
  };
  loaded.set(stage, templates);
  return templates;
}
