/**
 * The local chain's EVM is an optional peer dependency: a library install does not download it,
 * this repository's own install does (a dev dependency), and a missing package is an
 * `EvmNotInstalledError` that names the one command that installs it.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createEdrProvider, edrPackage, edrVersion, importEdr } from '../../src/devchain/edr.js'
import { EvmNotInstalledError, LocalChainError } from '../../src/errors/index.js'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  optionalDependencies?: Record<string, string>
  devDependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}

describe('the EVM package', () => {
  it('is an optional peer dependency (not downloaded by a library install) and a dev dependency of this repository', () => {
    expect(manifest.dependencies[edrPackage]).toBeUndefined()
    expect(manifest.optionalDependencies?.[edrPackage]).toBeUndefined()
    expect(manifest.peerDependencies[edrPackage]).toBe(edrVersion)
    expect(manifest.peerDependenciesMeta[edrPackage]).toEqual({ optional: true })
    expect(manifest.devDependencies[edrPackage]).toBe(edrVersion)
  })

  it('loads when installed: a provider answers', async () => {
    const provider = await createEdrProvider({ chainId: 10, genesisTime: 1_700_000_000 })
    await expect(provider.request({ method: 'eth_blockNumber' })).resolves.toBe('0x0')
  })

  it('when missing, is an EvmNotInstalledError naming the package and the command that installs it', async () => {
    const error = await importEdr('@nomicfoundation/edr-not-installed-here').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EvmNotInstalledError)
    expect(error).toBeInstanceOf(LocalChainError)
    const missing = error as EvmNotInstalledError
    expect(missing.code).toBe('EVM_NOT_INSTALLED')
    expect(missing.installCommand).toBe('npm install @nomicfoundation/edr@0.13.0')
    expect(missing.message).toMatchInlineSnapshot(`
      "The local chain needs its EVM, the package @nomicfoundation/edr, which is not installed.

      Details: It is an optional peer dependency (about 198 MB), so installing personhood does not download it. In your project run: npm install @nomicfoundation/edr@0.13.0. With npx, run the command with both packages: npx -p personhood -p @nomicfoundation/edr@0.13.0 personhood demo
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#evm-not-installed
      Version: personhood@0.1.0"
    `)
  })

  it('an error other than a missing package is not taken for one', async () => {
    const error = await importEdr('data:text/javascript,throw new Error("broken build")').catch((caught: unknown) => caught)
    expect(error).not.toBeInstanceOf(EvmNotInstalledError)
    expect((error as Error).message).toBe('broken build')
  })
})
