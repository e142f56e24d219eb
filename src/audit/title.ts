/**
 * What an audit is of, in words, the same in every file of the report: the proposal's title when
 * the votes came from one, else how many votes, on which network, at which block.
 */
import type { AuditResult } from './types.js'

/** Names of the networks a report names in words (others read "chain <id>"). */
const networkNames: Readonly<Record<string, string>> = {
  '1': 'Ethereum',
  '10': 'OP Mainnet',
  '56': 'BNB Smart Chain',
  '100': 'Gnosis',
  '137': 'Polygon',
  '8453': 'Base',
  '42161': 'Arbitrum One',
  '11155111': 'Sepolia',
  '11155420': 'OP Sepolia',
  '31337': 'local development chain',
}

/**
 * A network in words: its name and chain id when it has a well-known name, else "chain <id>".
 *
 * @example
 * describeNetwork('10') // 'OP Mainnet (chain 10)'
 * describeNetwork('999') // 'chain 999'
 */
export function describeNetwork(network: string): string {
  return Object.hasOwn(networkNames, network) ? `${networkNames[network]} (chain ${network})` : `chain ${network}`
}

/**
 * The title of an audit's report: the proposal's title, else "<N> votes on <network> at block <n>".
 *
 * @example
 * import { auditTitle } from 'personhood/audit'
 * auditTitle(result) // '300 votes on OP Mainnet at block 63,097,708'
 */
export function auditTitle(result: Pick<AuditResult, 'run' | 'voters'>): string {
  const { run } = result
  if (run.proposal) return run.proposal.title
  const votes = result.voters.length
  const network = Object.hasOwn(networkNames, run.network) ? networkNames[run.network]! : `chain ${run.network}`
  return `${votes.toLocaleString('en-US')} ${votes === 1 ? 'vote' : 'votes'} on ${network} at block ${Number(run.snapshot).toLocaleString('en-US')}`
}
