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
    // Caps for a test that hangs, not speed checks (speed is bench/'s): generous, so that a
    // machine running two suites at once does not fail a test that would pass.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The allocator of the in-process EVM (EDR's mimalloc, which reads these when a test first loads
    // EDR): return freed memory to the system at once, and no transparent huge pages. EDR records
    // every EVM step of a call (about 150-200 bytes a step; 1.4 GB for one 50M-gas Human ID reader
    // call of 2,000 voters), and by default much of it stays resident after the call (lazily freed
    // or in huge pages): test/score-api-host/parity.test.ts peaked at 8,110 MB, 4,463 MB with these.
    // See docs/benchmarks.md, "The test suite".
    env: { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ALLOW_LARGE_OS_PAGES: '0', MIMALLOC_RESET_DECOMMITS: '1', MIMALLOC_ABANDONED_RECLAIM_ON_FREE: '1' },
    // A temp folder per run; the run fails when a test leaves anything in it (or in .tmp/).
    globalSetup: ['./test/helpers/temp-guard.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
})
