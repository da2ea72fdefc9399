import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine (CI's size),
    // where two run the API files (CPU-bound PGlite, one per file) in about half the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'core', include: ['packages/core/src/**/*.test.ts'] } },
      {
        test: { name: 'web', include: ['apps/web/src/**/*.test.tsx'], environment: 'happy-dom' },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          globalSetup: ['apps/api/test/globalSetup.ts'],
          // A worker runs its files one after another in one module graph: the API's code is loaded once
          // per worker, not once per file (~1.5 s of CPU each). Files stay apart by their data: each
          // opens its own database (test/helper.ts) and its own app; no API test mocks modules or
          // changes the environment.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
