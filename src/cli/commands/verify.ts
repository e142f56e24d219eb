/**
 * `personhood verify`: every source on one address at a snapshot, each verdict with its reason.
 */
import { Command, Option } from 'commander'
import { createColours } from '../../utils/colour.js'
import { stringifyJson } from '../../utils/json.js'
import { defaultNetwork } from '../../utils/network.js'
import { sanitizeTerminal } from '../../utils/sanitize.js'
import { exitCodes } from '../exit-codes.js'
import { demoServerNote, helpFooter, sourceVariables, terminalVariables } from '../help.js'
import type { VerifyCommandOptions } from '../verify.js'
import { duration } from './parsers.js'

/** The flags of `verify` (the address is its argument). */
export type VerifyFlags = Omit<VerifyCommandOptions, 'address'> & { json?: boolean | undefined }

/** The `verify` command. */
export function verifyCommand(): Command {
  return new Command('verify')
    .description('Every source on one address at a snapshot: Human ID on chain, the Human ID API and attestation index, and the Passport score, each verdict with its reason.')
    .addHelpText(
      'after',
      helpFooter({
        examples: [
          ['one wallet now, on Optimism (the default network)', 'personhood verify $DEMO_VERIFIED_ADDRESS'],
          ['at a block (a number, or latest) through a JSON-RPC endpoint of your choice, as JSON', 'personhood verify $DEMO_ADDRESS --snapshot latest --rpc $PERSONHOOD_RPC_URL --json'],
        ],
        examplesNote: demoServerNote,
        variables: [...sourceVariables, ...terminalVariables],
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block'],
      }),
    )
    .argument('<address>', 'the wallet')
    .option('--snapshot <block>', 'a block of the network, or latest', 'latest')
    .addOption(new Option('--network <id>', "the space's network, a chain id").default(defaultNetwork, `${defaultNetwork}, Optimism, where Human ID lives`))
    .option('--action-id <id>', 'Human ID action id (default 123456789)')
    .option('--rpc <url>', 'JSON-RPC of the network (default: PERSONHOOD_RPC_URL)')
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the network is another')
    .option('--passport-url <url>', 'Passport API host')
    .option('--registry-url <url>', 'Passport v1 registry host')
    .option('--human-id-url <url>', 'Human ID API')
    .option('--index-url <url>', 'attestation index')
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--json', 'print JSON')
    .action(async (address: string, flags: VerifyFlags) => {
      const { colourVerifyLine, formatVerifyReport, runVerifyCommand } = await import('../verify.js')
      const { json, ...options } = flags
      const report = await runVerifyCommand({ ...options, address }, { env: process.env })
      if (json) console.log(stringifyJson(report, { indent: 2 }))
      else {
        const colours = createColours({ stream: process.stdout, env: process.env })
        for (const line of formatVerifyReport(report)) console.log(colourVerifyLine(sanitizeTerminal(line, { multiline: false }), colours))
      }
      // A source that could not answer makes the answer incomplete, whatever it says: exit 4.
      if (report.decision === null || report.unanswered.length > 0) process.exitCode = exitCodes.source
    })
}
