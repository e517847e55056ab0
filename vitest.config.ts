import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts', 'connectors/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120000,
          // beforeAll synthesises the whole stack, which takes over 10 s on a busy machine.
          hookTimeout: 120000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60000,
          hookTimeout: 120000,
          fileParallelism: false,
        },
      },
    ],
  },
});
