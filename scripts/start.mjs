// `npm start`: installs what is missing, builds the web app if needed, then runs the whole product locally.
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild } from './ensure-deps.mjs';

ensureDependencies();
ensureWebBuild();

const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
  stdio: 'inherit',
  // Two malloc arenas instead of glibc's eight per core: the runtime's threads (the database worker,
  // V8's and libuv's) otherwise each keep freed native memory resident (docs/decisions.md "Where
  // the runtime's memory goes"; about 25-35 MB here).
  env: { MALLOC_ARENA_MAX: '2', ...process.env, NODE_NO_WARNINGS: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
