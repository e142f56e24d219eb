/** B1 of the passport API: an address's score by a model. */
import { InvalidParameterError } from '../../errors/input.js'
import { defaultModelName, modelNames, modelScoreResponseSchema, type ModelName } from '../../schemas/model.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkAnsweredAddress, responseValidationError } from '../shared.js'
import type { PassportContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getModelScore}. */
export type GetModelScoreParameters = {
  address: string
  /** One of {@link modelNames}. Default `aggregate`; always sent. */
  model?: ModelName | undefined
  signal?: AbortSignal | undefined
}
/** One model's score of an address: -1 (insufficient data) or 0 to 100. */
export type GetModelScoreReturnType = { address: string; model: ModelName; score: number }

/** What {@link getModelScore} throws (see its `@throws`). */
export type GetModelScoreErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Scores any EVM address with a model (B1, `GET /v2/models/score/{address}?model=`), stamps or not.
 * Draws on the model budget (separate from A and C).
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `address` and optional `model` (default `aggregate`).
 * @returns `{ address, model, score }`, the score read from `details.models[model]`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} when `model` is not one of the eight model names (no request is sent).
 * @throws {ResponseValidationError} when the answer has no score for the requested model.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError} or {@link ResponseParseError}
 * when the request fails.
 * @example
 * import { createPassportClient, getModelScore } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { score } = await getModelScore(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', model: 'ethereum_activity' })
 */
export async function getModelScore(
  client: PassportContext,
  { address, model = defaultModelName, signal }: GetModelScoreParameters,
): Promise<GetModelScoreReturnType> {
  const normalized = normalizeAddress(address)
  if (!(modelNames as readonly unknown[]).includes(model)) {
    throw new InvalidParameterError({
      parameter: 'model',
      reason: `Expected one of ${modelNames.join(', ')}, got ${typeof model === 'string' ? `"${model.slice(0, 60)}"` : typeof model}.`,
    })
  }
  const request = { method: 'GET', path: `/v2/models/score/${normalized}`, query: { model } } as const
  const { data } = await client.transport.request({
    ...request,
    schema: modelScoreResponseSchema,
    rateLimiter: client.rateLimiters?.model,
    signal,
  })
  checkAnsweredAddress(client.transport, request, normalized, data.address, ['address'])
  const entry = Object.hasOwn(data.details.models, model) ? data.details.models[model] : undefined
  if (entry === undefined) {
    const present = Object.keys(data.details.models)
    throw responseValidationError(client.transport, request, [
      {
        path: ['details', 'models', model],
        message: `Expected a score for model "${model}", received ${present.length ? `only ${present.join(', ')}` : 'no model'}`,
      },
    ])
  }
  return { address: data.address, model, score: entry.score }
}
