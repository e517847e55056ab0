// `npm start`: installs what is missing, builds the web app and the runtime's bundle if needed, then
// runs the whole product locally from that bundle (scripts/runtime-bundle.mjs).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild } from './ensure-deps.mjs';

ensureDependencies();
ensureWebBuild();
// Imported once the dependencies are installed: it loads esbuild.
const { ensureRuntimeBundle, runtimeCommand } = await import('./runtime-bundle.mjs');
const { args, env } = runtimeCommand(await ensureRuntimeBundle(), 'infra/local/runtime/main');

const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...env, ...process.env, NODE_NO_WARNINGS: '1' } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
