/**
 * How each strategy folder's examples are served: the sources they read, started fresh for the
 * conformance suite. Every folder under `strategies/` must have an entry (the suite fails otherwise).
 */
import type { ExampleServing } from './conformance.js'
import { humanIdServing, humanVerificationServing } from './human-id-serving.js'

export const servings: Record<string, ExampleServing> = {
  'human-id': humanIdServing,
  'passport-v2': humanIdServing,
  'human-verification': humanVerificationServing,
  'human-gated': humanVerificationServing,
}
