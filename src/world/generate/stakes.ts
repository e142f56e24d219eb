/** The stakes (D9) and v1 round stakes of the world's wallets. */
import type { Address } from 'viem'
import { optimismChainId } from '../constants.js'
import type { Random } from '../random.js'
import type { RoundStake, Stake } from '../types.js'
import { demoIndex, wallet, walletMeta, type Draft } from './draft.js'
import { worldMix } from './mix.js'

/** Block of a stake update: the world's time base on Optimism; plausible heights elsewhere (mainnet 12 s, Arbitrum ~0.4 s). */
export function blockAt(d: Draft, chain: number, timeSec: number): number {
  if (chain === optimismChainId) return Math.floor((timeSec - d.genesisTime) / d.blockTimeSeconds)
  const elapsed = timeSec - d.startTime
  if (chain === 42161) return 1_000_000 + Math.floor(elapsed * 2.5)
  return 12_600_000 + Math.floor(elapsed / 12)
}

/** A stake amount: whole, or with cents. */
export function amount(r: Random, low: number, high: number): string {
  const whole = r.int(low, high)
  return r.chance(0.4) ? `${whole}.${String(r.int(1, 99)).padStart(2, '0')}` : String(whole)
}

/** A stake of `staker` on `stakee`. */
export function stake(d: Draft, r: Random, staker: Address, stakee: Address, chain?: number): Stake {
  const chainId = chain ?? Number(r.weighted({ '1': 0.5, '10': 0.3, '42161': 0.2 }))
  const lockSec = d.nowSec - r.int(5 * 86400, 500 * 86400)
  const unlockSec = lockSec + r.pick([30, 90, 180, 365]) * 86400
  return {
    chain: chainId,
    staker,
    stakee,
    amount: amount(r, 5, 2500),
    lock_time: new Date(lockSec * 1000).toISOString(),
    unlock_time: new Date(unlockSec * 1000).toISOString(),
    last_updated_in_block: blockAt(d, chainId, lockSec + r.int(0, 3600)),
  }
}

/** The stakes and round stakes: the demo account's, and the population's. */
export function stakes(d: Draft): { stakes: Stake[]; roundStakes: RoundStake[] } {
  const stakes: Stake[] = []
  const roundStakes: RoundStake[] = []
  const passing = wallet(d, demoIndex(d, 'passing-stamps')).address
  const r = d.rng.fork('demo-stakes')
  stakes.push(stake(d, r, passing, passing, optimismChainId))
  const roundStake = (w: Random, address: Address, roundId: string): RoundStake => {
    const self = w.chance(0.8)
    return {
      address,
      roundId,
      stakes: self ? [{ stake: amount(w, 1, 500), round: { id: roundId } }] : [],
      xstakeAggregates: !self || w.chance(0.6) ? [{ total: amount(w, 1, 1500), round: { id: roundId } }] : [],
    }
  }
  roundStakes.push({
    address: passing,
    roundId: '3',
    stakes: [{ stake: '25', round: { id: '3' } }],
    xstakeAggregates: [{ total: '140.5', round: { id: '3' } }],
  })
  for (const index of d.ordinary) {
    const w = d.rng.fork(`stakes:${index}`)
    const address = wallet(d, index).address
    const persona = walletMeta(d, index).persona
    if (w.chance(persona === 'power' ? worldMix.stakes.selfPower : worldMix.stakes.selfOther)) stakes.push(stake(d, w, address, address))
    if (w.chance(worldMix.stakes.community)) {
      const count = w.int(1, 2)
      for (let i = 0; i < count; i++) {
        const stakee = wallet(d, w.pick(d.ordinary)).address
        if (stakee !== address) stakes.push(stake(d, w, address, stakee))
      }
    }
    if (w.chance(worldMix.stakes.rounds)) {
      const rounds = w.shuffle(['1', '2', '3', '4', '5']).slice(0, w.int(1, 2)).sort()
      for (const roundId of rounds) roundStakes.push(roundStake(w, address, roundId))
    }
  }
  return { stakes, roundStakes }
}
