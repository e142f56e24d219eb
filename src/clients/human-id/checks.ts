/** The checks the Human ID actions make of their arguments, all before any request. */
import { InvalidParameterError } from '../../errors/index.js'
import { humanIdCredentials, type HumanIdCredential } from '../../schemas/human-id.js'
import { parseActionId, parseBlockNumber, parsePositiveIntegerId } from '../../utils/parse.js'

/** A credential of E1-E6 (gov-id, phone, biometrics), or an InvalidParameterError. */
export function checkCredential(credential: unknown): HumanIdCredential {
  if (!(humanIdCredentials as readonly unknown[]).includes(credential)) {
    throw new InvalidParameterError({
      parameter: 'credential',
      reason: `Expected one of ${humanIdCredentials.join(', ')}, got ${JSON.stringify(credential) ?? String(credential)}.`,
    })
  }
  return credential as HumanIdCredential
}

/** Reads an action id by the package's one rule and returns it as the decimal digits the service takes. */
export function checkActionId(actionId: unknown): string {
  return parseActionId(actionId).toString()
}

/** An E4-E6 network: a chain id as digits, or an InvalidParameterError. */
export function checkChainId(network: unknown): string {
  return parsePositiveIntegerId(network, 'network')
}

/** An E4-E6 snapshot (required): a block number as digits or `latest`, or an InvalidParameterError. */
export function checkSnapshot(snapshot: unknown): string {
  // E4-E6 require a snapshot: no default to 'latest' here.
  if (snapshot === undefined) throw new InvalidParameterError({ parameter: 'snapshot', reason: "Expected a block number or 'latest', got undefined." })
  const block = parseBlockNumber(snapshot, 'snapshot')
  return typeof block === 'bigint' ? block.toString() : block
}
