/**
 * knip: unused files, exports and dependencies. Entries are what AWS and the local runtime load by
 * path (route handlers, stream and queue consumers, the CDK app), the scripts and the tests' own
 * entry points; Vite and Vitest entries come from their configs.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    'functions/http/**/*.ts',
    'functions/ws/*.ts',
    'functions/streams/*.ts',
    'functions/queues/*.ts',
    'functions/schedules/*.ts',
    'functions/webhooks/*.ts',
    'infra/app.ts',
    // The channel worker's container entry (connectors/Dockerfile bundles it).
    'connectors/main.ts',
    'infra/local/emulators/dynamo-worker-entry.mjs',
    'scripts/*.{ts,mjs}',
    'tests/support/runtime-with-double.ts',
    'tests/support/runtime-with-whatsapp-double.ts',
    // Run in a child process under a memory cap by tests/unit/media-memory.test.ts, by path.
    'tests/support/media-memory-child.ts',
    // Worker processes of the fleet, spawned by path by tests/integration/worker-fleet-kill.test.ts and scripts/bench-fleet.ts.
    'tests/support/fleet-worker-child.ts',
    // Screenshots for docs/screenshots and the web measurements (bench/notes/web-performance.md), run by hand.
    'scripts/screenshots/take-*.ts',
    'scripts/measure/measure-*.ts',
    // Built for Node by web/build/prerender.ts, by path.
    'web/src/prerender.tsx',
  ],
  project: ['**/*.{ts,tsx,mjs,css}'],
  ignoreExportsUsedInFile: true,
  // The font's files are referenced by path from web/src/fonts.css (url(...)), which knip does not read as imports.
  ignoreDependencies: ['@fontsource-variable/inter'],
  // A system tool a test uses when present (the webhook sender's https test makes its certificate with it), never installed by npm.
  ignoreBinaries: ['openssl'],
  // Stylesheets import packages too (Tailwind, the bundled font).
  compilers: {
    css: (text: string) => [...text.matchAll(/@import\s+['"]([^'"]+)['"]/g)].map(([, spec]) => `import '${spec}';`).join('\n'),
  },
};

export default config;
