/**
 * validations/human-verification run as score-api runs a validation: the folder is copied into a
 * host laid out like score-api (`src/strategies/validations/<name>/`, beside the `Validation` base
 * class and `src/strategies/utils.ts`'s `getProvider`), constructed with each example's author,
 * space, network, snapshot and params, and `validate()` must give the example's `valid`; each
 * example's params validate against its schema.json (score-api's unit checks). The sources are the
 * local chain and the reference server of one demo world.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import AjvModule from 'ajv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrategySourceError } from '../../src/errors/strategy.js'
import { getStrategyJsonSchema, humanVerificationStrategy, validationJsonSchema } from '../../src/index.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import { root } from '../helpers/built.js'

type Example = { name: string; author: string; space: string; network: string; snapshot: number | 'latest'; params: Record<string, unknown>; valid: boolean }
type ValidationClass = new (author: string, space: string, network: string, snapshot: number | 'latest', params: unknown) => {
  id: string
  title: string
  validate(author?: string): Promise<boolean>
}

const folder = join(root, 'validations', 'human-verification')
const examples = JSON.parse(readFileSync(join(folder, 'examples.json'), 'utf8')) as Example[]
let server: ExampleServer
let host: string
let Validation: ValidationClass
const saved: Record<string, string | undefined> = {}

beforeAll(async () => {
  server = await humanVerificationServing.start()
  mkdirSync(join(root, '.tmp'), { recursive: true })
  host = mkdtempSync(join(root, '.tmp', 'score-api-'))
  const strategiesDir = join(host, 'src', 'strategies')
  cpSync(folder, join(strategiesDir, 'validations', 'human-verification'), { recursive: true })
  cpSync(join(root, 'test', 'validations', 'score-api-host', 'validation.ts'), join(strategiesDir, 'validations', 'validation.ts'))
  cpSync(join(root, 'test', 'validations', 'score-api-host', 'utils.ts'), join(strategiesDir, 'utils.ts'))
  const utils = (await import(join(strategiesDir, 'utils.ts'))) as { providers: Map<string, unknown> }
  utils.providers.set('10', server.provider('10'))
  Validation = ((await import(join(strategiesDir, 'validations', 'human-verification', 'index.ts'))) as { default: ValidationClass }).default
  for (const [name, value] of Object.entries(server.env)) {
    saved[name] = process.env[name]
    process.env[name] = value
  }
}, 120_000)

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  if (host) rmSync(host, { recursive: true, force: true })
  await server?.close()
})

describe('validations/human-verification', () => {
  it('has an id, a title and a schema.json that is the strategy options under #/definitions/Validation', () => {
    const validation = new Validation(examples[0]!.author, 'personhood.eth', '10', 'latest', {})
    expect(validation.id).toBe('human-verification')
    expect(validation.title).not.toBe('')
    const schema = JSON.parse(readFileSync(join(folder, 'schema.json'), 'utf8')) as Record<string, unknown>
    expect(schema).toEqual(validationJsonSchema(humanVerificationStrategy))
    expect((schema.definitions as { Validation: unknown }).Validation).toEqual((getStrategyJsonSchema(humanVerificationStrategy).definitions as { Strategy: unknown }).Strategy)
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
    const passportUrl = process.env.PASSPORT_API_URL
    process.env.PASSPORT_API_URL = 'http://127.0.0.1:9'
    process.env.PASSPORT_REGISTRY_URL = 'http://127.0.0.1:9'
    try {
      const validation = new Validation(example.author, example.space, example.network, example.snapshot, example.params)
      await expect(validation.validate()).rejects.toThrow(StrategySourceError)
    } finally {
      process.env.PASSPORT_API_URL = passportUrl
      delete process.env.PASSPORT_REGISTRY_URL
    }
  }, 60_000)
})
