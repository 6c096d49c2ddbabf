import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 } },
      {
        // Run under scripts/with-emulators.ts (npm run test:integration): FIRESTORE/PUBSUB_EMULATOR_HOST are set.
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/support/integration-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Starts the whole local stack once (test/support/stack-setup.ts); files share it, so run them in series.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/stack-setup.ts'],
          fileParallelism: false,
          testTimeout: 420_000,
          hookTimeout: 240_000,
        },
      },
      {
        // These files start their own stacks (they restart Pub/Sub mid-run), so no shared globalSetup.
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
