/**
 * Passport scores pushed on chain: who paid to push their Passport to the decoder, when, and what
 * the push said. Passport's own model is not a space's scorer: the world stands it in with the
 * default scorer's weights over the wallet's stamps at the push's time (before dedup), written with
 * 4 decimals as the resolver stores it.
 */
import { unitsToDecimal } from '../../rules/decimals.js'
import { passportDecoderDecimals } from '../../rules/passport-onchain.js'
import { weighStampsBeforeDedup } from '../summarize.js'
import type { OnchainPassportPush } from '../types.js'
import { day, demoIndex, walletMeta, type Draft } from './draft.js'
import { scorers } from './services.js'

/** Share of wallets with stamps that pushed their Passport on chain; of those, the share revoked later. */
const onchainPassportMix = { pushShare: 0.3, revokedShare: 0.1 }

/** Passport's IAM sets a pushed score to expire 90 days on. */
const maxScoreAgeSeconds = 90 * 86400

/**
 * The pushes of the world, in push order: the `passing-stamps` demo account pushed 3 days ago (on
 * chain and valid); a share of the wallets with stamps pushed 1-150 days ago (those pushed over 90
 * days ago have expired), and a tenth of those revoked it since; every other wallet never pushed.
 */
export function onchainPassports(d: Draft): OnchainPassportPush[] {
  const scorer = scorers()[0]!
  const trustedIssuers = d.issuers.filter((issuer) => issuer.trusted).map((issuer) => issuer.did)
  const pushes: OnchainPassportPush[] = []
  const push = (index: number, pushedAt: number, revokedAt: number | null) => {
    const wallet = d.wallets[index]!
    const thousandths = weighStampsBeforeDedup(wallet, scorer, { now: new Date(pushedAt * 1000).toISOString(), trustedIssuers })
    const score = unitsToDecimal(BigInt(thousandths) * 10n, passportDecoderDecimals)
    pushes.push({ address: wallet.address, score, pushedAt, expiresAt: pushedAt + maxScoreAgeSeconds, revokedAt })
  }
  const demo = demoIndex(d, 'passing-stamps')
  push(demo, d.nowSec - 3 * (day / 1000), null)
  d.wallets.forEach((wallet, index) => {
    if (index === demo || walletMeta(d, index).persona === 'demo' || wallet.stamps.length === 0) return
    const r = d.rng.fork(`onchain-passport:${index}`)
    if (!r.chance(onchainPassportMix.pushShare)) return
    const pushedAt = d.nowSec - r.int(1, 150) * 86400 - r.int(0, 86399)
    const revokedAt = r.chance(onchainPassportMix.revokedShare) ? pushedAt + Math.floor(r.next() * (d.nowSec - pushedAt)) + 1 : null
    push(index, pushedAt, revokedAt)
  })
  return pushes.sort((a, b) => a.pushedAt - b.pushedAt || (a.address < b.address ? -1 : 1))
}
