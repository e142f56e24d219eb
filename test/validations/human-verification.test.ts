/**
 * validations/human-verification run as score-api runs a validation: the folder and the strategy
 * folders are laid out, compiled (TypeScript 4.7, score-api's options) and loaded by the score-api
 * host (test/score-api-host), the class constructed with each demo example's author, space,
 * network, snapshot and params, and `validate()` must give the example's `valid`; each example's
 * params validate against its schema.json (score-api's unit checks). The sources are the local
 * chain (behind the host's gateway) and the reference server of one demo world. The folder's own
 * examples.json names real networks; the demo examples are in
 * test/strategies/fixtures/validations/human-verification/examples.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import AjvModule from 'ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { buildScoreApi, type LoadedValidationClass, type ScoreApiBuild } from '../score-api-host/host.js'
import { startUpstreams, type Upstreams } from '../score-api-host/upstreams.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { listStrategyFolders, strategiesRoot } from '../strategies/conformance.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import { root } from '../helpers/built.js'

type Example = { name: string; author: string; space: string; network: string; snapshot: number | 'latest'; params: Record<string, unknown>; valid: boolean }

const folder = join(root, 'validations', 'human-verification')
const examples = JSON.parse(readFileSync(join(root, 'test', 'strategies', 'fixtures', 'validations', 'human-verification', 'examples.json'), 'utf8')) as Example[]
let server: ExampleServer
let upstreams: Upstreams
let build: ScoreApiBuild
let Validation: LoadedValidationClass
const saved: Record<string, string | undefined> = {}

function setEnvironment(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) {
    if (!(name in saved)) saved[name] = process.env[name]
    process.env[name] = value
  }
}

beforeAll(async () => {
  server = await humanVerificationServing.start()
  upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
  setEnvironment({ ...server.env, ...upstreams.env })
  build = buildScoreApi({
    strategies: Object.fromEntries(listStrategyFolders().map((name) => [name, join(strategiesRoot, name)])),
    validations: { 'human-verification': folder },
  })
  Validation = build.load().validations['human-verification']!.validation
}, 600_000)

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  build?.remove()
  await upstreams?.close()
  await server?.close()
})

describe('validations/human-verification', () => {
  it("has an id, a title and a schema.json under #/definitions/Validation whose options are options of the strategy folder, of the same type", () => {
    const validation = new Validation(examples[0]!.author, 'personhood.eth', '10', 'latest', {})
    expect(validation.id).toBe('human-verification')
    expect(validation.title).not.toBe('')
    const schema = JSON.parse(readFileSync(join(folder, 'schema.json'), 'utf8')) as { $ref: string; definitions: Record<string, unknown> }
    type Options = { properties: Record<string, unknown>; additionalProperties: boolean }
    const strategySchema = JSON.parse(readFileSync(join(strategiesRoot, 'human-verification', 'schema.json'), 'utf8')) as { definitions: { Strategy: Options } }
    expect(schema.$ref).toBe('#/definitions/Validation')
    const options = schema.definitions.Validation as Options
    expect(options.additionalProperties).toBe(false)
    expect(Object.keys(options.properties).length).toBeGreaterThan(0)
    const typeOf = (property: unknown) => (property as { type?: unknown } | undefined)?.type
    for (const [name, property] of Object.entries(options.properties)) expect(typeOf(property), name).toEqual(typeOf(strategySchema.definitions.Strategy.properties[name]))
  })

  it('every example has params valid against schema.json, and both answers occur', () => {
    const Ajv = (AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule
    const check = new (Ajv as unknown as new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } })({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(join(folder, 'schema.json'), 'utf8')) as object,
    )
    for (const example of examples) expect(check(example.params), example.name).toBe(true)
    expect(new Set(examples.map((example) => example.valid))).toEqual(new Set([true, false]))
  })

  it.each(examples.map((example) => [example.name, example] as const))('%s', async (_name, example) => {
    const validation = new Validation(example.author, example.space, example.network, example.snapshot, example.params)
    expect(await validation.validate()).toBe(example.valid)
  })

  it('a malformed author does not pass, and a source that fails is an error, not a refusal', async () => {
    const example = examples.find((candidate) => !candidate.valid)!
    expect(await new Validation('0x1234', example.space, example.network, example.snapshot, example.params).validate()).toBe(false)
    const passportUrl = process.env.PASSPORT_API_URL as string
    // A folder may read its environment when loaded: load it afresh with the Passport API unreachable.
    process.env.PASSPORT_API_URL = 'http://127.0.0.1:9'
    try {
      const Unreachable = build.load().validations['human-verification']!.validation
      const validation = new Unreachable(example.author, example.space, example.network, example.snapshot, example.params)
      await expect(validation.validate()).rejects.toThrow(/passport/i)
    } finally {
      process.env.PASSPORT_API_URL = passportUrl
    }
  }, 60_000)
})
