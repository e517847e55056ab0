/**
 * Replays the channel worker image's build (connectors/Dockerfile) without a container engine,
 * so a build that would fail in `cdk deploy` fails here first (ADR-0082). No engine runs on these machines and the base image comes from a
 * registry they cannot reach, so the Dockerfile's build stage is interpreted instead:
 *
 * - the build context is the one CDK hands Docker: an image asset of the repository root staged by
 *   aws-cdk-lib itself (so `.dockerignore` applies exactly as in a deploy);
 * - each COPY, WORKDIR, ENV and RUN of the build stage runs in order in a fresh folder that stands
 *   for the container's root (absolute paths in RUN lines are moved under it), with an empty HOME,
 *   no user or global npm config and none of this machine's `npm_config_*` variables: only the
 *   project's own `.npmrc`, as in the image;
 * - the final stage's `COPY --from=<build stage>` sources must exist, and the file its CMD runs must
 *   be among what it copies.
 *
 * Settings added, none of which changes what npm writes: npm's cache is this machine's
 * (`npm_config_cache`, so nothing is downloaded twice), `prefer-offline` (cached metadata is used
 * without asking the registry again), and how this machine reaches the registry (its proxy
 * variables, the CA certificates it trusts and npm's `cafile`, `networkSettings`). Differences from the real build that remain: the host's
 * Node and npm, not the image's (node:22 ships npm 10), and the host's platform.
 *
 *   node scripts/replay-docker-build.mjs [--keep]
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, posix, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const repoRoot = resolve(import.meta.dirname, '..');

/**
 * Where a replay builds: in memory where the machine has a tmpfs (writing and deleting some 600
 * installed packages is what takes the time on a busy disk), else the temporary folder.
 */
export const replayTmpDir = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** The Dockerfile as instructions: continuation lines joined, comments and parser directives dropped. */
export function parseDockerfile(text) {
  const instructions = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (pending && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const [keyword, ...rest] = full.split(/\s+/);
    instructions.push({ keyword: keyword.toUpperCase(), args: full.slice(keyword.length).trim(), words: rest });
  }
  return instructions;
}

/** The stages of a parsed Dockerfile: `{ name, image, instructions }`, in order. */
export function stagesOf(instructions) {
  const stages = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.words.filter((w) => !w.startsWith('--'));
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({ name: as >= 0 ? words[as + 1] : String(stages.length), image: words[0], instructions: [] });
    } else if (stages.length) {
      stages.at(-1).instructions.push(instruction);
    }
  }
  return stages;
}

/**
 * How this machine reaches the registry: its proxy and the certificates it trusts (a TLS-inspecting
 * proxy's CA, say), passed on as they are. They change where npm's requests go, not what it writes.
 */
function networkSettings() {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];
  const settings = Object.fromEntries(names.filter((name) => process.env[name]).map((name) => [name, process.env[name]]));
  let cafile = '';
  try {
    cafile = execFileSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).trim();
  } catch {}
  if (cafile && cafile !== 'null' && cafile !== 'undefined') settings.npm_config_cafile = cafile;
  return settings;
}

/** Host folders a RUN line may name as they are (the tools); any other absolute path is the container's. */
const hostPaths = new Set(['usr', 'bin', 'sbin', 'lib', 'lib64', 'etc', 'dev', 'proc', 'sys']);

/** A RUN line with the container's absolute paths moved under `fsRoot`. */
export function mapPaths(command, fsRoot) {
  return command.replace(/(^|[\s=:'"])\/([A-Za-z0-9._-]+)/g, (match, before, first) => (hostPaths.has(first) ? match : `${before}${fsRoot}/${first}`));
}

function containerPath(fsRoot, workdir, path) {
  return join(fsRoot, posix.isAbsolute(path) ? path : posix.join(workdir, path));
}

/** COPY's semantics for one source: a folder's contents go into the destination folder; a file into it, or to it. */
function copyInto(source, destination, destinationIsDir) {
  if (statSync(source).isDirectory()) {
    mkdirSync(destination, { recursive: true });
    for (const entry of readdirSync(source)) cpSync(join(source, entry), join(destination, entry), { recursive: true });
    return;
  }
  const target = destinationIsDir ? join(destination, source.split('/').at(-1)) : destination;
  mkdirSync(dirname(target), { recursive: true });
  cpSync(source, target);
}

function run(command, cwd, env, log) {
  return new Promise((done, fail) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output += chunk;
      if (log) process.stdout.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(output) : fail(new Error(`RUN ${command}\nexited ${code}:\n${output.slice(-4000)}`))));
  });
}

/**
 * Replays the build stage of `dockerfile` (relative to `contextDir`) in `workDir`, then checks
 * what the last stage copies from it. Returns the host folder standing for the build stage's root
 * and the runtime stage's files.
 */
export async function replayBuild({ contextDir, dockerfile, workDir, npmCache = join(homedir(), '.npm'), log = false }) {
  const stages = stagesOf(parseDockerfile(readFileSync(join(contextDir, dockerfile), 'utf8')));
  if (stages.length < 2) throw new Error(`${dockerfile}: expected a build stage and a runtime stage`);
  const runtime = stages.at(-1);
  const builders = stages.slice(0, -1);
  const roots = new Map();
  for (const stage of builders) {
    const fsRoot = join(workDir, `stage-${stage.name}`);
    const home = join(fsRoot, 'root');
    mkdirSync(home, { recursive: true });
    mkdirSync(join(fsRoot, 'tmp'), { recursive: true });
    // No user or global npm config, and nothing of this machine's npm settings: the image has none.
    const userConfig = join(workDir, 'empty-user-npmrc');
    const globalConfig = join(workDir, 'empty-global-npmrc');
    for (const file of [userConfig, globalConfig]) writeFileSync(file, '');
    const env = {
      ...networkSettings(),
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      npm_config_userconfig: userConfig,
      npm_config_globalconfig: globalConfig,
      npm_config_cache: npmCache,
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    let workdir = '/';
    for (const { keyword, args, words } of stage.instructions) {
      if (keyword === 'WORKDIR') {
        workdir = posix.resolve(workdir, args);
        mkdirSync(join(fsRoot, workdir), { recursive: true });
      } else if (keyword === 'COPY') {
        if (words.some((w) => w.startsWith('--'))) throw new Error(`COPY with flags in a build stage is not replayed: COPY ${args}`);
        const sources = words.slice(0, -1);
        const destination = words.at(-1);
        const destinationIsDir = destination.endsWith('/') || sources.length > 1;
        for (const source of sources) copyInto(join(contextDir, source), containerPath(fsRoot, workdir, destination), destinationIsDir);
      } else if (keyword === 'ENV') {
        for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[name] = value.replace(/^"|"$/g, '');
      } else if (keyword === 'RUN') {
        await run(mapPaths(args, fsRoot), join(fsRoot, workdir), env, log);
      } else if (keyword !== 'ARG') {
        throw new Error(`${dockerfile}: ${keyword} in a build stage is not replayed`);
      }
    }
    roots.set(stage.name, fsRoot);
  }

  // The runtime stage: what it copies from a build stage must be there, and its CMD's file with it.
  const appRoot = join(workDir, 'runtime');
  let workdir = '/';
  for (const { keyword, args, words } of runtime.instructions) {
    if (keyword === 'WORKDIR') workdir = posix.resolve(workdir, args);
    if (keyword !== 'COPY') continue;
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    if (!from) throw new Error(`${dockerfile}: the runtime stage copies from the context (COPY ${args}); only --from=<build stage> is replayed`);
    const fsRoot = roots.get(from);
    if (!fsRoot) throw new Error(`${dockerfile}: COPY --from=${from} names no build stage`);
    const rest = words.filter((w) => !w.startsWith('--'));
    const destination = rest.at(-1);
    for (const source of rest.slice(0, -1)) {
      const path = join(fsRoot, source);
      if (!existsSync(path)) throw new Error(`${dockerfile}: COPY --from=${from} ${source}: the build stage left nothing there`);
      copyInto(path, containerPath(appRoot, workdir, destination), destination.endsWith('/') || statSync(path).isDirectory());
    }
  }
  const cmd = runtime.instructions.findLast((i) => i.keyword === 'CMD');
  const entry = cmd && JSON.parse(cmd.args).find((word, index) => index > 0 && !word.startsWith('-'));
  if (entry && !existsSync(containerPath(appRoot, workdir, entry))) throw new Error(`${dockerfile}: CMD runs ${entry}, which the image does not hold`);
  return { buildRoots: roots, appDir: join(appRoot, workdir), image: builders.map((s) => s.image) };
}

/**
 * The worker image's build context as CDK stages it for Docker (`.dockerignore` applied by
 * aws-cdk-lib), in `outdir`. Returns its folder.
 */
export async function stageWorkerContext(outdir) {
  const [{ App, CfnWaitConditionHandle, Stack }, { DockerImageAsset, Platform }] = await Promise.all([
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-ecr-assets'),
  ]);
  const app = new App({ outdir });
  const stack = new Stack(app, 'WorkerImage');
  // A template must hold a resource; this one only keeps CDK's validation quiet.
  new CfnWaitConditionHandle(stack, 'Placeholder');
  new DockerImageAsset(stack, 'Image', { directory: repoRoot, file: 'connectors/Dockerfile', platform: Platform.LINUX_ARM64 });
  const assembly = app.synth();
  const manifest = JSON.parse(readFileSync(join(assembly.directory, 'WorkerImage.assets.json'), 'utf8'));
  const [image] = Object.values(manifest.dockerImages);
  const directory = image.source.directory;
  return isAbsolute(directory) ? directory : join(assembly.directory, directory);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
  const workDir = mkdtempSync(join(replayTmpDir, 'replay-worker-image-'));
  const started = Date.now();
  try {
    const contextDir = await stageWorkerContext(join(workDir, 'cdk.out'));
    const { appDir } = await replayBuild({ contextDir, dockerfile: 'connectors/Dockerfile', workDir: join(workDir, 'build'), log: true });
    console.log(`connectors/Dockerfile replayed in ${((Date.now() - started) / 1000).toFixed(1)} s: the image would hold ${readdirSync(appDir).join(', ')}`);
  } finally {
    if (values.keep) console.log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}
