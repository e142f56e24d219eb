/** What every attestation-index action is called with, the index's defaults, and the guard check they share. */
import type { Transport } from '../../http/transport.js'
import { parsePositiveInteger } from '../../utils/parse.js'

/** The public index (`{attestation_index_url}`). */
export const defaultAttestationIndexBaseUrl = 'https://mainnet-rpc.sign.global'

/** Default guard: most pages one read follows. */
export const defaultAttestationMaxPages = 100
/** Default guard: most rows one read collects. */
export const defaultAttestationMaxItems = 10_000

/** What the index actions need. An {@link AttestationIndexClient} is one. */
export type AttestationIndexContext = { readonly transport: Transport }

/** A guard or page number (`maxPages`, `maxItems`, `page`): a positive integer, or an InvalidParameterError. */
export function checkGuard(value: unknown, name: string): number {
  return parsePositiveInteger(value, name)
}
