/** The past score requests (A1 reads and C2 submissions) the server replays when it loads the world. */
import { day, demoIndex, hour, wallet, walletMeta, type Draft } from './draft.js'
import { worldMix } from './mix.js'

/** The demo account's read two days ago, and 1-3 requests of a share of the population. */
export function fillScoreEvents(d: Draft): void {
  const passing = wallet(d, demoIndex(d, 'passing-stamps'))
  d.scoreEvents.push({ scorerId: 1, address: passing.address, at: new Date(d.nowMs - 2 * day).toISOString(), via: 'A1' })
  for (const index of [...d.fixedVerificationWallets, ...d.fixedAttestationWallets, ...d.ordinary]) {
    const r = d.rng.fork(`score-events:${index}`)
    if (!r.chance(worldMix.scoreEventShare)) continue
    const from = Math.max(walletMeta(d, index).refreshMs, d.nowMs - 120 * day)
    const count = r.int(1, 3)
    for (let i = 0; i < count; i++) {
      const scorerId = Number(r.weighted({ '1': 0.8, '2': 0.1, '3': 0.05, '4': 0.05 }))
      const via = scorerId === 3 || r.chance(0.15) ? 'C2' : 'A1'
      const at = Math.round(from + r.next() * (d.nowMs - hour - from))
      d.scoreEvents.push({ scorerId, address: wallet(d, index).address, at: new Date(at).toISOString(), via })
    }
  }
}
