import { defineConfig } from 'vitest/config';

/**
 * Workers per project (ADR-0201). Projects with different worker
 * counts need their own `sequence.groupOrder`; the groups run one after the other. Unit, web and
 * infra tests share a group of two workers (the 2-core default is one); integration tests share
 * one local runtime and run in their own group; browser tests drive one Chromium, a file at a time.
 */
const shared = { maxWorkers: 2, sequence: { groupOrder: 0 } };
/**
 * The integration files `npm test` runs in the browser tests' process (after them), so the two
 * processes that run side by side end closer together: each brings its own runtime (the fleet kill
 * test its worker processes too) and reads nothing of the shared runtime's. In the clean-clone run
 * of 2026-11-28 the integration process took 520 s and the browser one 453 s; the campaigns file
 * (35 s) moved across.
 */
const integrationBesideBrowser = ['tests/integration/worker-fleet-kill.test.ts', 'tests/integration/campaigns.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Tests beside their modules, and tests/unit for the cross-cutting ones (docs/architecture.md, the local runtime).
          // The local emulators, pollers and runtime are plain Node modules: their tests run here, not in infra.
          include: ['tests/unit/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts', 'connectors/**/*.test.ts', 'infra/local/**/*.test.ts'],
          environment: 'node',
          ...shared,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          // Runs in the browser tests' process instead, to even the two processes' lengths (ADR-0201).
          exclude: [...integrationBesideBrowser, '**/node_modules/**'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        test: {
          // Integration files with runtimes of their own (no shared runtime, no global setup): run
          // by the browser tests' vitest process after them, as `npm test` starts it.
          name: 'integration-own',
          include: integrationBesideBrowser,
          environment: 'node',
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['infra/**/*.test.ts'],
          exclude: ['infra/local/**', '**/node_modules/**'],
          environment: 'node',
          // Synthesises each stage's app once for every infra test file (infra/test-support/stage-templates.ts).
          globalSetup: ['infra/test-support/synth-stages.ts'],
          // One worker process for every infra file: aws-cdk-lib is loaded and warmed up once (a
          // first synthesis in a fresh process costs ~9 s, a later one ~1 s). The files share no
          // mutable state: no env writes, mocks or timers (ADR-0201).
          isolate: false,
          ...shared,
          testTimeout: 120000,
          // A variant's synthesis (other context) takes over 10 s on a busy machine.
          hookTimeout: 120000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          ...shared,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // A failed test prints the runtime's last lines (tests/e2e/failure-log.ts).
          setupFiles: ['tests/e2e/failure-log.ts'],
          // One worker process for every browser test file, one file at a time: playwright-core,
          // the AWS SDK and the helpers are imported once instead of once a file (about 1 s each).
          // Each file still starts its own runtime and Chromium (ADR-0242).
          isolate: false,
          testTimeout: 60000,
          hookTimeout: 120000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
