/**
 * human-verification: Human ID credentials at the snapshot, else a passing Passport score; otherwise 0.
 * Passport is asked only about the voters Human ID did not verify.
 * The logic is the `personhood` package's (`humanVerificationStrategy`); this module binds it to the score
 * server's environment (HUMAN_ID_* and PASSPORT_* variables).
 */
import { createScoreApiStrategy, humanVerificationStrategy, readStrategyEnvironment } from 'personhood'

export const author = 'personhood-dao'
export const version = '0.1.0'

/** The definition, for the explicit-context form: `runStrategy(definition, { ..., context })`. */
export const definition = humanVerificationStrategy

/** score-api's `strategy(space, network, provider, addresses, options, snapshot)`. */
export const strategy = createScoreApiStrategy(humanVerificationStrategy, () => readStrategyEnvironment(process.env))
