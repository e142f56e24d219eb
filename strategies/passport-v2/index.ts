/**
 * passport-v2: voting power from a Passport scorer's score as it stood at the snapshot, gated or
 * weighted, in a few requests per call. The logic is the `personhood` package's
 * (`passportV2Strategy`); this module binds it to the score server's environment
 * (PASSPORT_API_KEY, PASSPORT_SCORER_ID, PASSPORT_API_TIER, PASSPORT_API_URL, PASSPORT_REGISTRY_URL).
 */
import { createScoreApiStrategy, passportV2Strategy, readStrategyEnvironment } from 'personhood'

export const author = 'personhood-dao'
export const version = '0.1.0'

/** The definition, for the explicit-context form: `runStrategy(definition, { ..., context })`. */
export const definition = passportV2Strategy

/** score-api's `strategy(space, network, provider, addresses, options, snapshot)`. */
export const strategy = createScoreApiStrategy(passportV2Strategy, () => readStrategyEnvironment(process.env))
