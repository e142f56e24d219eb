import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // The strategy folders import the package by its name, as they do once copied into score-api;
    // in the tests that name is the source.
    alias: [{ find: /^personhood$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'strategies/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A temp folder per run; the run fails when a test leaves anything in it (or in .tmp/).
    globalSetup: ['./test/helpers/temp-guard.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
})
