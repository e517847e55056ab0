/** Types of ./replay-docker-build.mjs, for the TypeScript that imports it (infra/worker-image-build.test.ts). */
export interface DockerInstruction {
  keyword: string;
  args: string;
  words: string[];
}
export const replayTmpDir: string;
export function parseDockerfile(text: string): DockerInstruction[];
export function stagesOf(instructions: DockerInstruction[]): { name: string; image: string; instructions: DockerInstruction[] }[];
export function mapPaths(command: string, fsRoot: string): string;
export function replayBuild(options: {
  contextDir: string;
  dockerfile: string;
  workDir: string;
  npmCache?: string;
  log?: boolean;
}): Promise<{ buildRoots: Map<string, string>; appDir: string; image: string[] }>;
export function stageWorkerContext(outdir: string): Promise<string>;
