/** The terms-of-service acceptances (D10) of the world's wallets. */
import { tosType } from '../constants.js'
import type { TosAcceptance } from '../types.js'
import { day, demoIndex, wallet, type Draft } from './draft.js'
import { worldMix } from './mix.js'

/** The acceptances: the demo account's and a share of the population's. */
export function tosAcceptances(d: Draft): TosAcceptance[] {
  const acceptances: TosAcceptance[] = []
  const r = d.rng.fork('tos')
  const passing = wallet(d, demoIndex(d, 'passing-stamps')).address
  acceptances.push({ tosType, address: passing, acceptedAt: new Date(d.nowMs - 9 * day).toISOString() })
  for (const index of d.ordinary) {
    if (!r.chance(worldMix.tosShare)) continue
    const acceptedAt = new Date(Math.round(d.nowMs - r.float(1, 200) * day)).toISOString()
    acceptances.push({ tosType, address: wallet(d, index).address, acceptedAt })
  }
  return acceptances
}
