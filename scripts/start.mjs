// `npm start`: installs what is missing, builds the web app if needed, then runs the whole product locally.
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild } from './ensure-deps.mjs';

ensureDependencies();
ensureWebBuild();

const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_NO_WARNINGS: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
