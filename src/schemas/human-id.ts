import { z } from 'zod'
import { defaultActionId, tryParseActionId } from '../utils/parse.js'
import { addressSchema, integerLikeSchema, numberLikeSchema, numberOrStringSchema } from './common.js'

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** The credentials E1-E6 check, in the spec's order. */
export const humanIdCredentials = ['gov-id', 'phone', 'biometrics'] as const
/** A Human ID credential name. */
export type HumanIdCredential = (typeof humanIdCredentials)[number]
/** A Human ID credential name (path segment of E1-E6). */
export const humanIdCredentialSchema = z.enum(humanIdCredentials)

/** The networks E1-E3 serve (`{network}` path segment). */
export const humanIdNetworks = ['optimism', 'base-sepolia'] as const
/** A Human ID network name. */
export type HumanIdNetwork = (typeof humanIdNetworks)[number]
/** A Human ID network name. */
export const humanIdNetworkSchema = z.enum(humanIdNetworks)

/** The default action id (declared once, in `src/utils/parse.ts`). */
export { defaultActionId }

/**
 * An `action-id` (a uint256) read by the package's one rule ({@link tryParseActionId}): decimal
 * digits, a `0x` hex string, a safe integer or a bigint; normalized to a bigint.
 */
export const actionIdSchema = z.unknown().transform((value, ctx): bigint => {
  const parsed = tryParseActionId(value)
  if (parsed === undefined) {
    ctx.issues.push({ code: 'custom', input: value, message: 'Expected action-id as decimal digits or 0x hex (a uint256)' })
    return z.NEVER
  }
  return parsed
})

// ---------------------------------------------------------------------------------------------
// E1-E3: verification result
// ---------------------------------------------------------------------------------------------

/**
 * E1-E3 result as our server emits it: `{ result: true, expirationDate }` (Unix seconds) or
 * `{ result: false }`.
 */
export const verificationResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal(true), expirationDate: z.number() }),
  z.object({ result: z.literal(false) }),
])
/** A verification answer (E1-E3): `{ result: true, expirationDate }` (Unix seconds) or `{ result: false }`. */
export type VerificationResult = z.output<typeof verificationResultSchema>

/**
 * E1-E3 result as the services send it, normalized to {@link VerificationResult}: `expirationDate`
 * may be a numeric string; one sent with `result: false` is dropped.
 */
export const verificationResultResponseSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal(true), expirationDate: numberLikeSchema }),
  z.object({ result: z.literal(false) }),
])
/** What {@link verificationResultResponseSchema} accepts. */
export type VerificationResultResponseInput = z.input<typeof verificationResultResponseSchema>

/** E1-E3 query (server side): `user` (an address) and `action-id`; output `{ user, actionId }`. */
export const verificationQuerySchema = z
  .object({ user: addressSchema, 'action-id': actionIdSchema })
  .transform((query) => ({ user: query.user, actionId: query['action-id'] }))
/** What {@link verificationQuerySchema} returns. */
export type VerificationQuery = z.output<typeof verificationQuerySchema>
/** What {@link verificationQuerySchema} accepts. */
export type VerificationQueryInput = z.input<typeof verificationQuerySchema>

// ---------------------------------------------------------------------------------------------
// E4-E6: voting strategy
// ---------------------------------------------------------------------------------------------

/**
 * E4-E6 response: `{ score: [{ address, score }] }`, score 1 (verified) or 0. Scores sent as digit
 * strings become integers.
 */
export const votingStrategyResponseSchema = z.object({
  score: z.array(z.object({ address: z.string(), score: integerLikeSchema })),
})
/** A voting-strategy answer (E4-E6): `{ score: [{ address, score }] }`, score 1 (verified) or 0. */
export type VotingStrategyResponse = z.output<typeof votingStrategyResponseSchema>
/** What {@link votingStrategyResponseSchema} accepts. */
export type VotingStrategyResponseInput = z.input<typeof votingStrategyResponseSchema>

/**
 * E4-E6 query (server side): `network` (chain id), `snapshot` (block number or `latest`),
 * `addresses` (comma-separated; split and trimmed, not checked: a bad address must score 0, not
 * fail the batch) and `action-id`; output `{ network, snapshot, addresses, actionId }`.
 */
export const votingStrategyQuerySchema = z
  .object({
    network: z
      .string()
      .regex(/^\d+$/, 'Expected a chain id')
      .transform(Number)
      .pipe(z.number().int().positive()),
    snapshot: z.union([
      z.literal('latest'),
      z
        .string()
        .regex(/^\d+$/, 'Expected a block number or latest')
        .transform((value) => BigInt(value)),
    ]),
    addresses: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address !== ''),
      )
      .pipe(z.array(z.string()).min(1, 'Expected at least one address')),
    'action-id': actionIdSchema,
  })
  .transform(({ 'action-id': actionId, ...query }) => ({ ...query, actionId }))
/** What {@link votingStrategyQuerySchema} returns. */
export type VotingStrategyQuery = z.output<typeof votingStrategyQuerySchema>
/** What {@link votingStrategyQuerySchema} accepts. */
export type VotingStrategyQueryInput = z.input<typeof votingStrategyQuerySchema>

// ---------------------------------------------------------------------------------------------
// E7: clean hands
// ---------------------------------------------------------------------------------------------

/**
 * E7 result: `{ isUnique: true, signature, circuitId }` or `{ isUnique: false }`. The spec types
 * `circuitId` as a number (our server sends one); services also send strings, kept as given.
 */
export const cleanHandsResultSchema = z.discriminatedUnion('isUnique', [
  z.object({ isUnique: z.literal(true), signature: z.string(), circuitId: numberOrStringSchema }),
  z.object({ isUnique: z.literal(false) }),
])
/** A clean-hands SBT answer (E7): `{ isUnique: true, signature, circuitId }` or `{ isUnique: false }`. */
export type CleanHandsResult = z.output<typeof cleanHandsResultSchema>

/** E7 result as the services send it: same as {@link cleanHandsResultSchema} (already tolerant). */
export const cleanHandsResultResponseSchema = cleanHandsResultSchema

/** E7 query (server side): `address` (on the non-EVM chain, any non-empty string) and `action-id`. */
export const cleanHandsQuerySchema = z
  .object({ address: z.string().min(1), 'action-id': actionIdSchema })
  .transform((query) => ({ address: query.address, actionId: query['action-id'] }))
/** What {@link cleanHandsQuerySchema} returns. */
export type CleanHandsQuery = z.output<typeof cleanHandsQuerySchema>
/** What {@link cleanHandsQuerySchema} accepts. */
export type CleanHandsQueryInput = z.input<typeof cleanHandsQuerySchema>
