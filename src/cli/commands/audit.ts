/**
 * `personhood audit`: who voted, which voters were unique humans at the snapshot and by what
 * evidence, linked wallets, and the outcome counting only verified voters, written as a report.
 */
import { Command } from 'commander'
import { createColours } from '../../utils/colour.js'
import type { AuditCommandOptions } from '../audit.js'
import { exitCodes } from '../exit-codes.js'
import { demoServerNote, helpFooter, sourceVariables, terminalVariables } from '../help.js'
import { duration, list, percent } from './parsers.js'

/** The flags of `audit`. */
export type AuditFlags = AuditCommandOptions

/** The `audit` command. */
export function auditCommand(): Command {
  return new Command('audit')
    .description(
      'Audit a vote: who voted, which voters were unique humans at the snapshot and by what evidence, linked wallets, and the outcome counting only verified voters. Writes audit.json, audit.csv, audit.md and audit.html.',
    )
    .addHelpText(
      'after',
      helpFooter({
        examples: [
          ['a vote export (CSV: address, choice, voting_power) on Optimism at a block, the report in report/', 'personhood audit --votes votes.csv --network 10 --snapshot latest --choices For,Against --out report'],
          ['the same in CI: exit 6 past 50% unverified', 'personhood audit --votes votes.csv --snapshot latest --choices For,Against --fail-if-unverified-share 50'],
        ],
        examplesNote: `${demoServerNote} With --proposal <id> instead of --votes, the votes, snapshot, network and choices come from the Snapshot hub.`,
        variables: [...sourceVariables, ...terminalVariables],
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block', 'policy'],
      }),
    )
    .option('--votes <file>', '(required: this or --proposal) the votes: a Snapshot vote export (CSV: address, choice, voting_power; or JSON)')
    .option('--proposal <id>', '(required: this or --votes) a proposal id, its votes read from the Snapshot hub (every page)')
    .option('--hub <url>', 'the Snapshot hub GraphQL URL', 'https://hub.snapshot.org/graphql')
    .option('--snapshot <block>', "the snapshot block (default: the proposal's)")
    .option('--network <id>', "the space's network, a chain id (default: the proposal's network, else 10: Optimism, where Human ID lives)")
    .option('--config <file>', "JSON naming the strategy and its options (default: the proposal's strategy when it is one of ours, else human-verification)")
    .option('--rpc <url>', "JSON-RPC of the space's network (default: PERSONHOOD_RPC_URL)")
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the space is on another network')
    .option('--passport-url <url>', 'Passport API host (default: PASSPORT_API_URL, PERSONHOOD_BASE_URL, else the public one)')
    .option('--registry-url <url>', 'Passport v1 registry host (default: the Passport host when set, else the public one)')
    .option('--human-id-url <url>', 'Human ID API (default: HUMAN_ID_API_URL, PERSONHOOD_HUMAN_ID_URL, else the public one)')
    .option('--index-url <url>', 'attestation index (default: ATTESTATION_INDEX_URL, PERSONHOOD_ATTESTATION_INDEX_URL, else the public one)')
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--choices <labels>', 'choice labels of a votes file, comma-separated', list)
    .option('--type <type>', 'voting system of a votes file (single-choice, approval, ranked-choice, weighted, quadratic, basic)')
    .option('--out <dir>', 'where the report goes', 'personhood-audit')
    .option('--cache-dir <dir>', 'disk cache of service answers (default: <out>/cache)')
    .option('--no-cache', 'ask every service again')
    .option('--no-linked-wallets', 'skip the per-voter score history reads behind linked-wallet signals')
    .option('--fail-if-unverified-share <pct>', 'exit 6 when more than this percent of voters are unverified', percent)
    .action(async (flags: AuditFlags) => {
      const { runAuditCommand } = await import('../audit.js')
      // The process is the audit's: its heap grows by twice at most between collections (see ../heap.ts).
      const { limitAuditHeapGrowth } = await import('../heap.js')
      limitAuditHeapGrowth()
      const outcome = await runAuditCommand(flags, { env: process.env, log: (line) => console.log(line), colours: createColours({ stream: process.stdout, env: process.env }) })
      if (outcome.policyFailed) process.exitCode = exitCodes.policy
    })
}
