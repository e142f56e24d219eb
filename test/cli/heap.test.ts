/**
 * `personhood audit` lets V8's heap grow by twice at most between full collections (src/cli/heap.ts):
 * read in a child process from V8's own account of the limit it sets after a collection
 * (`--trace-gc-verbose`), which says the factor it applied; and not when the user's Node flags
 * already chose how the heap grows or how large it may be.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { auditHeapFlag, limitAuditHeapGrowth } from '../../src/cli/heap.js'

const heapModule = fileURLToPath(new URL('../../src/cli/heap.ts', import.meta.url))

/** The factors V8 applied to the old generation's limit after two full collections in a fresh process. */
function limitFactors(limit: boolean): number[] {
  const script = [
    `import { limitAuditHeapGrowth } from ${JSON.stringify(heapModule)}`,
    limit ? 'limitAuditHeapGrowth([], undefined)' : '',
    'const kept = []',
    'for (let round = 0; round < 2; round++) {',
    '  for (let i = 0; i < 100; i++) { kept.push(new Array(10000).fill(i)); if (kept.length > 50) kept.shift() }',
    '  globalThis.gc()',
    '}',
  ].join('\n')
  const output = execFileSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  return [...output.matchAll(/\[HeapController\] Limit: .*\((\d+(?:\.\d+)?)\)/g)].map((match) => Number(match[1]))
}

describe('the audit command’s heap growth', () => {
  test('after it is set, V8 raises the limit by 2x at each full collection', () => {
    const factors = limitFactors(true)
    expect(factors.length).toBeGreaterThanOrEqual(2)
    expect(new Set(factors)).toEqual(new Set([2]))
  })

  test("the user's own heap flags are left alone", () => {
    expect(limitAuditHeapGrowth(['--max-old-space-size=2048'], undefined)).toBe(false)
    expect(limitAuditHeapGrowth([], '--trace-warnings --heap-growing-percent=50')).toBe(false)
    expect(limitAuditHeapGrowth(['--max_old_space_size=512'], '')).toBe(false)
    expect(auditHeapFlag).toBe('--heap-growing-percent=100')
  })
})
