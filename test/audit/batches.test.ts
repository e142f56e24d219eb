/**
 * The audit holds one batch of judgments at a time (src/audit/judge.ts, src/audit/run.ts): once a
 * batch is turned into compact lines, nothing of it (the strategy's answers, their evidence) is
 * reachable while the judge works on the next one. Checked with a full collection and weak
 * references, which V8 clears exactly when nothing reaches the object: no timing, no memory figure.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { getAddress, type Address } from 'viem'
import { z } from 'zod'
import { describe, expect, test } from 'vitest'
import { recordingBlockProvider } from '../helpers/block-provider.js'
import { createStrategyJudge } from '../../src/audit/judge.js'
import { runAudit } from '../../src/audit/run.js'
import type { AuditRun } from '../../src/audit/types.js'
import { parseStrategyCall } from '../../src/strategy/call.js'
import { defineStrategy } from '../../src/strategy/define.js'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const provider = recordingBlockProvider()
const run: AuditRun = { packageVersion: '1.0.0', strategy: 'evidenced', options: {}, network: '1', snapshot: '100', blockTimestamp: 1_700_000_000, votesSource: 'votes.csv' }

describe('the audit’s batches', () => {
  test('the batch judged before is unreachable while the next one is judged', async () => {
    // Each voter's answer carries evidence; the first batch's are watched through weak references.
    const watched: WeakRef<object>[] = []
    const reachableWhileJudging: number[] = []
    const evidenced = defineStrategy({
      name: 'evidenced',
      title: 'Evidenced',
      optionsSchema: z.object({}).strict(),
      async score({ addresses }) {
        // A macrotask first: V8 keeps a weak reference's target until the task that made it ends.
        await new Promise((resolve) => setImmediate(resolve))
        collect()
        reachableWhileJudging.push(watched.filter((ref) => ref.deref() !== undefined).length)
        return new Map(
          addresses.map((address) => {
            const evidence = { kind: 'chain', subject: address.toLowerCase(), reads: [{ contract: 'x'.repeat(40), returnData: '0'.repeat(200) }] }
            if (reachableWhileJudging.length === 1) watched.push(new WeakRef(evidence))
            return [address, { score: 1, detail: [{ credential: 'phone', valid: true, reason: 'valid', evidence, source: 'chain' }] }]
          }),
        )
      },
    })
    const addresses = Array.from({ length: 30 }, (_, index) => at(index + 1))
    const call = parseStrategyCall(evidenced, { network: '1', snapshot: 100n, addresses, options: {} })
    const judge = createStrategyJudge({ call, provider, context: {}, batchSize: 10 })
    const result = await runAudit({ votes: addresses.map((voter) => ({ voter, choice: 1, votingPower: 1 })), run, judge })
    expect(result.voters).toHaveLength(30)
    expect(watched).toHaveLength(10)
    // Before the first batch nothing was watched; while the second and the third were judged, none
    // of the first batch's evidence was reachable (the lines keep it packed, as bytes).
    expect(reachableWhileJudging).toEqual([0, 0, 0])
    // And it is in the audit, packed.
    expect(result.evidence?.of(0)).toEqual([{ kind: 'chain', subject: addresses[0]!.toLowerCase(), reads: [{ contract: 'x'.repeat(40), returnData: '0'.repeat(200) }] }])
  })
})
