/**
 * Strategy options: read with a zod schema before any request (a {@link StrategyOptionsError} names
 * every problem), and published as the `schema.json` Snapshot's UI validates against, derived from
 * the same zod schema so the two cannot disagree.
 */
import { z } from 'zod'
import { StrategyOptionsError, type StrategyOptionIssue } from '../errors/strategy.js'

/**
 * Option names score-api handles itself: `start` and `end` (blocks outside which it does not call
 * the strategy). They are removed before the options are read.
 */
export const reservedOptionNames = ['start', 'end'] as const

/**
 * The `symbol` every strategy accepts (a display label in Snapshot's UI; never required, never read).
 *
 * @example
 * import { z } from 'zod'
 * import { symbolOption } from 'personhood'
 * const options = z.object({ symbol: symbolOption, score: z.number() }).strict()
 */
export const symbolOption = z.string().max(16).optional().meta({ title: 'Symbol', description: 'A label Snapshot shows beside the score.', examples: ['VOTE'] })

/**
 * Reads a strategy's options with its zod schema. `undefined` and `null` read as `{}`; `start` and
 * `end` are dropped (score-api's own).
 *
 * @throws {StrategyOptionsError} naming every issue (path and message), before any request.
 * @example
 * import { z } from 'zod'
 * import { parseStrategyOptions } from './options.js'
 * parseStrategyOptions('my-strategy', z.object({ score: z.number().default(1) }).strict(), { score: 2 }) // { score: 2 }
 */
export function parseStrategyOptions<schema extends z.ZodType>(strategy: string, schema: schema, options: unknown): z.output<schema> {
  let input: unknown = options ?? {}
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    input = Object.fromEntries(Object.entries(input).filter(([name]) => !(reservedOptionNames as readonly string[]).includes(name)))
  }
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new StrategyOptionsError({ strategy, issues: toOptionIssues(parsed.error) })
  return parsed.data
}

/** zod's issues as {@link StrategyOptionIssue}s. */
export function toOptionIssues(error: z.ZodError): StrategyOptionIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
    message: issue.message,
  }))
}

/**
 * The JSON schema (draft-07) of a strategy's options in the shape score-api expects in
 * `schema.json`: `$ref: "#/definitions/Strategy"`, the options as `definitions.Strategy` with a
 * title, `additionalProperties: false` (the zod object must be strict).
 *
 * @throws {Error} when the zod schema has a part JSON Schema cannot express.
 * @example
 * import { strategyJsonSchema } from './options.js'
 * const schema = strategyJsonSchema({ title: 'Passport v2', options: passportV2OptionsSchema })
 */
export function strategyJsonSchema({ title, options }: { title: string; options: z.ZodType }): Record<string, unknown> {
  const { $schema: _ignored, ...body } = z.toJSONSchema(options, { target: 'draft-7', io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $ref: '#/definitions/Strategy',
    definitions: { Strategy: { title, ...body } },
  }
}
