/**
 * human-id: a score for each voter holding Human ID credentials (government ID, phone, biometrics,
 * clean hands) as they stood at the snapshot, read on chain (default) or through the Human ID API.
 * The logic is the `personhood` package's (`humanIdStrategy`); this module binds it to the score
 * server's environment (HUMAN_ID_RPC_URL, HUMAN_ID_API_URL, ATTESTATION_INDEX_URL).
 */
import { createScoreApiStrategy, humanIdStrategy, readStrategyEnvironment } from 'personhood'

export const author = 'personhood-dao'
export const version = '0.1.0'

/** The definition, for the explicit-context form: `runStrategy(definition, { ..., context })`. */
export const definition = humanIdStrategy

/** score-api's `strategy(space, network, provider, addresses, options, snapshot)`. */
export const strategy = createScoreApiStrategy(humanIdStrategy, () => readStrategyEnvironment(process.env))
