/**
 * `personhood demo`: the whole loop, offline. It starts the reference server with the demo world on
 * a loopback port and drives it through the package's own clients over real HTTP: v2 scores (A1),
 * model scores (B1), Human ID verifications (E1-E3), the attestation index with rule 6 of E (E8),
 * a SIWE sign-in to the stamp cache (D13, D7), and a voting-strategy batch over every wallet of the
 * world (E4). Everything printed was answered by the server; nothing is precomputed.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { createAttestationIndexClient } from '../clients/attestation-index/index.js'
import { createHumanIdClient } from '../clients/human-id/index.js'
import { createPassportClient } from '../clients/passport/index.js'
import { createStampCacheClient } from '../clients/stamp-cache/index.js'
import { humanIdCredentials, type HumanIdCredential } from '../schemas/human-id.js'
import { hasValidCleanHandsAttestation } from '../verify/clean-hands.js'
import { generateWorld } from '../world/generate/index.js'
import { summarizeWorld } from '../world/summarize.js'
import type { DemoStory } from '../world/types.js'
import { startServe } from '../server/start.js'

/** Options of {@link runDemo}. */
export type RunDemoParameters = {
  /** Wallets of the demo world. Default 1,000. */
  wallets?: number
  /** Reference time of the world (ISO 8601). Default: the start of the current UTC day. */
  worldNow?: string
  /** The clock (Unix ms). Default `Date.now`. */
  now?: () => number
}

/** One demo account as the services answered for it. */
export type DemoAccountReport = {
  story: DemoStory
  description: string
  address: string
  /** A1: the v2 score (5-decimal string) and whether it passes the scorer's threshold. */
  score: string
  passingScore: boolean
  /** Stamps that were dedup'ed (claimed first by another wallet). */
  dedupedStamps: number
  /** B1: the aggregate model score, -1 when there is no data. */
  modelScore: number
  /** E1-E3 on Optimism for the default action id. */
  verifications: Record<HumanIdCredential, boolean>
  /** E8 rows judged by rule 6 of E at the current time. */
  cleanHands: boolean
}

/** What {@link runDemo} measured. */
export type DemoReport = {
  url: string
  world: { seed: string; now: string; wallets: number; stamps: number; sybilClusters: number; verifications: number; attestations: number }
  accounts: DemoAccountReport[]
  signIn: { story: DemoStory; address: string; cacheScore: string; matchesA1: boolean }
  votingStrategy: {
    credential: HumanIdCredential
    blockNumber: number
    addresses: number
    verified: number
    requests: number
  }
  /** Calls made to the server, by interface. */
  requests: number
}

/**
 * Runs the demo against a freshly started reference server and returns what the services answered.
 *
 * @example
 * import { runDemo } from 'personhood/cli'
 * const report = await runDemo({ wallets: 200 })
 * console.log(report.accounts.map((account) => account.score))
 */
export async function runDemo({ wallets = 1000, worldNow, now = Date.now }: RunDemoParameters = {}): Promise<DemoReport> {
  const worldDate = worldNow ?? new Date(Math.floor(now() / 86_400_000) * 86_400_000).toISOString()
  const world = generateWorld({ now: worldDate, wallets })
  const running = await startServe({ port: 0, host: '127.0.0.1', seed: 'demo', world, now })
  let requests = 0
  const countingFetch: typeof fetch = (input, init) => {
    requests++
    return fetch(input, init)
  }
  try {
    const scorerId = world.scorers[0]!.id
    const passport = createPassportClient({ apiKey: running.apiKey, baseUrl: running.urls.passport, fetch: countingFetch, now })
    const humanId = createHumanIdClient({ baseUrl: running.urls.humanId, fetch: countingFetch, now })
    const index = createAttestationIndexClient({ baseUrl: running.urls.attestationIndex, fetch: countingFetch, now })

    const accounts: DemoAccountReport[] = []
    for (const account of world.demoAccounts) {
      const score = await passport.getScore({ scorerId, address: account.address })
      const model = await passport.getModelScore({ address: account.address })
      const verifications = {} as Record<HumanIdCredential, boolean>
      for (const credential of humanIdCredentials) {
        const answer = await humanId.getVerification({ credential, network: 'optimism', user: account.address })
        verifications[credential] = answer.result
      }
      const rows = await index.getAttestations({ address: account.address })
      accounts.push({
        story: account.story,
        description: account.description,
        address: account.address,
        score: score.score,
        passingScore: score.passing_score,
        dedupedStamps: Object.values(score.stamps).filter((stamp) => stamp.dedup).length,
        modelScore: model.score,
        verifications,
        cleanHands: hasValidCleanHandsAttestation(rows, { now: new Date(now()) }),
      })
    }

    // D13 + D7: sign in to the stamp cache as the passing account; its cache score is the A1 score.
    const passing = world.demoAccounts.find((account) => account.story === 'passing-stamps') ?? world.demoAccounts[0]!
    const cache = createStampCacheClient({ baseUrl: running.urls.stampCache, fetch: countingFetch, now })
    const signer = privateKeyToAccount(passing.privateKey)
    await cache.signIn({ account: signer, domain: '127.0.0.1', uri: running.url })
    const cacheScore = await cache.getScore({ address: signer.address })
    const a1 = accounts.find((account) => account.address === passing.address)

    // E4: one voting-strategy read of every wallet at the current block, batched under 8 KB URLs.
    const blockNumber = Math.floor((now() / 1000 - world.chain.genesisTime) / world.chain.blockTimeSeconds)
    const before = requests
    const addresses = world.wallets.map((wallet) => wallet.address)
    const votes = await humanId.getVotingStrategyScores({ credential: 'gov-id', network: world.chain.chainId, snapshot: blockNumber, addresses })
    const summary = summarizeWorld(world)

    return {
      url: running.url,
      world: {
        seed: world.seed,
        now: world.now,
        wallets: world.wallets.length,
        stamps: summary.stamps.total,
        sybilClusters: world.sybilClusters.length,
        verifications: world.verifications.length,
        attestations: world.attestations.length,
      },
      accounts,
      signIn: { story: passing.story, address: passing.address, cacheScore: String(cacheScore.score), matchesA1: a1?.score === String(cacheScore.score) },
      votingStrategy: {
        credential: 'gov-id',
        blockNumber,
        addresses: addresses.length,
        verified: Object.values(votes).filter((vote) => vote === 1).length,
        requests: requests - before,
      },
      requests,
    }
  } finally {
    await running.close()
  }
}

const yes = (value: boolean) => (value ? 'yes' : '-')

/** The readable report `personhood demo` prints. */
export function formatDemoReport(report: DemoReport): string[] {
  const { world } = report
  const header = ['account', 'address', 'stamp score', 'passing', 'dedup', 'model', 'gov-id', 'phone', 'biometrics', 'clean hands']
  const rows = report.accounts.map((account) => [
    account.story,
    // Whole addresses: a shortened one cannot be pasted into the next command.
    account.address,
    account.score,
    yes(account.passingScore),
    String(account.dedupedStamps),
    String(account.modelScore),
    yes(account.verifications['gov-id']),
    yes(account.verifications.phone),
    yes(account.verifications.biometrics),
    yes(account.cleanHands),
  ])
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()
  const vote = report.votingStrategy
  return [
    `personhood demo: the reference server on ${report.url}, driven through the package's clients (offline)`,
    '',
    `World "${world.seed}" at ${world.now}: ${world.wallets} wallets, ${world.stamps} stamps, ${world.sybilClusters} sybil clusters, ` +
      `${world.verifications} Human ID verifications, ${world.attestations} clean-hands attestation rows.`,
    '',
    'Demo accounts: the stamp score (A1) and whether it passes, stamps dedup\'ed, the aggregate model score (B1), Human ID',
    'verifications on Optimism (E1-E3), and clean hands by the clean-hands rule over the attestation index (E8).',
    '(Letters and numbers in parentheses name the interfaces and endpoints: see docs/interface.md.)',
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    ...report.accounts.map((account) => `  ${account.story}: ${account.description}`),
    '',
    `Sign-in to the stamp cache (D13, SIWE) as ${report.signIn.story}: token issued; its cached score (D7) is ${report.signIn.cacheScore}` +
      (report.signIn.matchesA1 ? ', the same as the stamp score.' : ', which differs from the stamp score!'),
    `Voting-strategy endpoint for ${vote.credential} (E4) at block ${vote.blockNumber}: ${vote.verified} of ${vote.addresses} wallets verified, ` +
      `in ${vote.requests} requests (each URL under 8 KB).`,
    '',
    `${report.requests} HTTP requests in all. Start the same server yourself with: npx personhood serve --seed demo`,
  ]
}
