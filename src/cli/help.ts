/**
 * The end of every command's `--help`: examples, the environment variables it reads, and its exit
 * codes (the same table as docs/cli.md, from {@link exitCodes}).
 */
import { exitCodes } from './exit-codes.js'

const exitMeanings: Record<keyof typeof exitCodes, string> = {
  ok: 'done, every result complete',
  internal: 'an unexpected error',
  usage: 'a wrong command line',
  input: 'a wrong input (file, address, options, proposal, an RPC of another chain)',
  source: 'a service or the RPC failed or could not be reached',
  block: 'the snapshot block cannot be read',
  policy: 'the audit is complete, but more voters are unverified than --fail-if-unverified-share allows',
}

/** The sources' variables, shared by score, verify and audit. */
export const sourceVariables: [string, string][] = [
  ['PERSONHOOD_RPC_URL', "JSON-RPC of the network (--rpc wins)"],
  ['HUMAN_ID_RPC_URL', 'JSON-RPC of Optimism, where Human ID lives (--hub-chain-rpc wins)'],
  ['PASSPORT_API_KEY, PERSONHOOD_API_KEY', 'Passport API key'],
  ['PASSPORT_SCORER_ID, PERSONHOOD_SCORER_ID', 'Passport scorer'],
  ['PASSPORT_API_TIER, PERSONHOOD_API_TIER', 'the key tier, 1-4 (how fast requests may go; default 1)'],
  ['PASSPORT_API_URL, PERSONHOOD_BASE_URL', 'Passport host (--passport-url wins)'],
  ['HUMAN_ID_API_URL, PERSONHOOD_HUMAN_ID_URL', 'Human ID API (--human-id-url wins)'],
  ['ATTESTATION_INDEX_URL, PERSONHOOD_ATTESTATION_INDEX_URL', 'attestation index (--index-url wins)'],
]

/** score-api's variables, read where `human-gated` runs (score). */
export const scoreApiVariables: [string, string][] = [
  ['PERSONHOOD_SCORE_API_URL', "score-api, for human-gated's inner strategies that are not this package's (--score-api wins)"],
  ['PERSONHOOD_SCORE_API_KEY', 'score-api API key (sent as X-API-KEY to that URL only)'],
]

/** Variables of the terminal's output. */
export const terminalVariables: [string, string][] = [
  ['NO_COLOR', 'set (not empty): no colour'],
  ['FORCE_COLOR', 'colour even when the output is not a terminal (0: never)'],
]

/** Parameters of {@link helpFooter}. */
export type HelpFooterParameters = {
  /**
   * What each example does, and the command. Every example runs as written against the demo world:
   * in a shell with the `export` lines of `personhood serve --seed demo --chain`, in a folder holding
   * the files it names (test/cli/help-examples.test.ts runs them all).
   */
  examples: [string, string][]
  variables: [string, string][]
  /** The exit codes the command can end with; a pair gives this command's own meaning of the code. */
  exits: (keyof typeof exitCodes | [keyof typeof exitCodes, string])[]
  /** A line before the examples saying what they assume (a running demo server, files). */
  examplesNote?: string
}

/** Exit 4 of the commands that start the local chain (`demo`, `serve --chain`). */
export const evmNotInstalledMeaning = "the local chain could not start: its EVM (@nomicfoundation/edr, an optional peer dependency) is not installed (the message names the command that installs it), or its port is taken"

/** The note of commands whose examples read the demo server's variables. */
export const demoServerNote = "Against the demo world: run them in a shell with the export lines `personhood serve --seed demo --chain` prints."

/** The text after a command's options in its `--help`. */
export function helpFooter({ examples, variables, exits, examplesNote }: HelpFooterParameters): string {
  const width = Math.max(...variables.map(([name]) => name.length), 0)
  return [
    '',
    'Examples:',
    ...(examplesNote ? [`  ${examplesNote}`] : []),
    ...examples.flatMap(([what, command]) => [`  # ${what}`, `  $ ${command}`]),
    '',
    'Environment:',
    ...(variables.length ? variables.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`) : ['  none']),
    '',
    'Exit codes:',
    ...exits.map((exit) => (typeof exit === 'string' ? `  ${exitCodes[exit]}  ${exitMeanings[exit]}` : `  ${exitCodes[exit[0]]}  ${exit[1]}`)),
    '',
    'Options marked (required) must be given. Every option, variable and code: docs/cli.md',
  ].join('\n')
}
