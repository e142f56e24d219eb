/**
 * The suite's own vitest config plus `bench/suite/record.ts` as a setup file: what `bench/suite.ts`
 * runs. Everything else (pool, projects, timeouts, global setup) is the suite's, unchanged.
 */
import { mergeConfig } from 'vitest/config'
import suite from '../../vitest.config.js'

export default mergeConfig(suite, { test: { setupFiles: [new URL('./record.ts', import.meta.url).pathname] } })
