/** The model scores (interface B) of the world's wallets, by persona; fixed ones for the demo accounts. */
import type { DemoStory, ModelName, ModelScore } from '../types.js'
import { walletMeta, type Draft, type Persona } from './draft.js'
import { worldMix } from './mix.js'

const modelNames: readonly ModelName[] = ['aggregate', 'ethereum_activity', 'nft', 'arbitrum', 'base', 'optimism', 'polygon', 'zksync']

/** The model scores of every wallet. */
export function modelScores(d: Draft): ModelScore[] {
  const scores: ModelScore[] = []
  const ranges: Record<Persona | 'sybil', readonly [number, number]> = {
    power: [60, 100],
    regular: [25, 85],
    newcomer: [5, 60],
    dormant: [10, 70],
    sybil: [0, 20],
  }
  const demo: Partial<Record<DemoStory, Partial<Record<ModelName, number>>>> = {
    'passing-stamps': { aggregate: 91, ethereum_activity: 88, optimism: 76 },
    'gov-id-verified': { aggregate: 47 },
    'clean-hands-only': { aggregate: -1 },
    sybil: { aggregate: 4, ethereum_activity: 2 },
  }
  d.wallets.forEach((wallet, index) => {
    const { persona } = walletMeta(d, index)
    if (persona === 'demo') {
      const story = d.demoAccounts[index]!.story
      for (const model of modelNames) {
        const score = demo[story]?.[model]
        if (score !== undefined) scores.push({ address: wallet.address, model, score })
      }
      return
    }
    const r = d.rng.fork(`model-scores:${index}`)
    const [low, high] = ranges[persona]
    const share = persona === 'newcomer' ? 0.55 : persona === 'sybil' ? 0.9 : worldMix.modelScores.aggregate
    if (!r.chance(share)) return
    const noData = r.chance(persona === 'newcomer' ? 0.2 : worldMix.modelScores.insufficientData)
    const aggregate = noData ? -1 : r.int(low, high)
    scores.push({ address: wallet.address, model: 'aggregate', score: aggregate })
    for (const model of modelNames.slice(1)) {
      if (!r.chance(persona === 'power' ? 0.5 : worldMix.modelScores.otherModel)) continue
      const score = r.chance(0.15) ? -1 : aggregate < 0 ? r.int(low, high) : Math.max(0, Math.min(100, aggregate + r.int(-15, 15)))
      scores.push({ address: wallet.address, model, score })
    }
  })
  return scores
}
