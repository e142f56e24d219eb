/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own
 * summary, so any CI can read the result without knowing vitest's format.
 */
import type { Reporter, TestModule } from 'vitest/node'

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      // a file that failed to load has no tests but must not pass silently
      if (module.state() === 'failed' && !module.children.size) failed++
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
  }
}
