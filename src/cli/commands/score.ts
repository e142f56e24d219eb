/**
 * `personhood score`: a strategy of this package run as score-api runs it, on a list of addresses.
 */
import { Command, Option } from 'commander'
import type { ScoreCommandOptions } from '../score.js'
import { defaultNetwork } from '../../utils/network.js'
import { demoServerNote, helpFooter, scoreApiVariables, sourceVariables } from '../help.js'
import { duration } from './parsers.js'

/** The flags of `score`. */
export type ScoreFlags = Omit<ScoreCommandOptions, 'format'> & { json?: boolean | undefined; csv?: boolean | undefined }

/** The `score` command. */
export function scoreCommand(): Command {
  return new Command('score')
    .description("Run a strategy of this package as score-api runs it, on a list of addresses: a table, or JSON (score-api's { address: score }) or CSV.")
    .addHelpText(
      'after',
      helpFooter({
        examples: [
          ['two addresses on Optimism (the default network) at the latest block', 'personhood score --strategy human-verification --snapshot latest --addresses $DEMO_ADDRESS,$DEMO_VERIFIED_ADDRESS'],
          ['a file of addresses (one a line), the options a space sets (a scorer id is a number), as JSON', 'personhood score --strategy passport-v2 --snapshot latest --addresses voters.txt --options \'{"scorerId":1}\' --json'],
        ],
        examplesNote: demoServerNote,
        variables: [...sourceVariables, ...scoreApiVariables],
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block'],
      }),
    )
    .requiredOption('--strategy <name>', '(required) human-id, passport-v2, human-verification or human-gated')
    .addOption(new Option('--network <id>', "the space's network, a chain id").default(defaultNetwork, `${defaultNetwork}, Optimism, where Human ID lives`))
    .requiredOption('--snapshot <block>', '(required) a block number of that network, or latest')
    .requiredOption('--addresses <file|list>', '(required) a comma-separated list, or a file with one address per line (or a CSV, first column)')
    .option('--options <json|file>', 'the strategy options, as a space configures them (JSON text or a JSON file)')
    .option('--rpc <url>', "JSON-RPC of the space's network (default: PERSONHOOD_RPC_URL)")
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the space is on another network')
    .option('--passport-url <url>', 'Passport API host (default: PASSPORT_API_URL, PERSONHOOD_BASE_URL, else the public one)')
    .option('--registry-url <url>', 'Passport v1 registry host')
    .option('--human-id-url <url>', 'Human ID API')
    .option('--index-url <url>', 'attestation index')
    .option('--score-api <url>', "score-api, for human-gated's inner strategies that are not this package's (default: PERSONHOOD_SCORE_API_URL)")
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--json', 'print JSON')
    .option('--csv', 'print CSV')
    .option('--output <file>', 'write there instead of printing')
    .action(async (flags: ScoreFlags) => {
      const { runScoreCommand } = await import('../score.js')
      const { json, csv, ...options } = flags
      const format = json ? 'json' : csv ? 'csv' : 'table'
      await runScoreCommand({ ...options, format }, { env: process.env, log: (line) => console.log(line) })
    })
}
