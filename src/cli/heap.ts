/**
 * The heap setting of `personhood audit`. V8 lets its old generation grow to about four times what
 * survived the last full collection before it collects again (on a machine that allows it over
 * 1 GB). An audit keeps a little per voter (its line, about 1 KB) and makes a lot that lives a while
 * and dies (each batch's answers and evidence): at 100,000 voters about 125 MB survives, and the
 * heap grew to 510 MB before V8 collected it. The command lets the heap grow by at most twice
 * between collections, with no cap: the same audit then peaks at 525-533 MB (bench/audit.ts,
 * docs/benchmarks.md), and a larger one still gets all the memory it needs.
 */
import { setFlagsFromString } from 'node:v8'

/** The V8 flag the audit command sets: the old generation grows by at most 100% between full collections. */
export const auditHeapFlag = '--heap-growing-percent=100'

/**
 * Sets {@link auditHeapFlag} for this process, unless the user's own Node flags (`node …` or
 * `NODE_OPTIONS`) already say how the heap grows or how large it may be. V8 reads the flag at each
 * full collection, so setting it once the process runs takes effect from the next one.
 *
 * @returns whether it was set.
 */
export function limitAuditHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): boolean {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)]
  if (given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size)\b/.test(flag))) return false
  setFlagsFromString(auditHeapFlag)
  return true
}
