/**
 * The compiled contracts the package ships (src/devchain/artifacts.ts) are what contracts/*.sol
 * compile to with the installed solc: a change to a contract without `npm run contracts` fails here.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { artifactsModule, buildArtifactsModule } from '../../scripts/contracts.js'

describe('src/devchain/artifacts.ts', () => {
  it('is up to date with contracts/*.sol (run `npm run contracts` after changing a contract)', async () => {
    const committed = await readFile(artifactsModule, 'utf8')
    expect(committed === (await buildArtifactsModule()), 'src/devchain/artifacts.ts is out of date: run `npm run contracts`').toBe(true)
  })
})
