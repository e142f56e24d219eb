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
    // EDR): return freed memory to the system at once, and no transparent huge pages. With EDR 0.13.0
    // (no step traces) two 2,000-voter Human ID reads with every credential still peak lower with
    // them: 588-632 MB against 686-839 MB at EDR's defaults (bench/edr-read-memory.ts). See
    // docs/benchmarks.md, "Where the memory goes".
    env: { MIMALLOC_PURGE_DELAY: '0', MIMALLOC_ALLOW_LARGE_OS_PAGES: '0', MIMALLOC_RESET_DECOMMITS: '1', MIMALLOC_ABANDONED_RECLAIM_ON_FREE: '1' },
    // A temp folder per run; the run fails when a test leaves anything in it (or in .tmp/).
    globalSetup: ['./test/helpers/temp-guard.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
})
