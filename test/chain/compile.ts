/**
 * The contracts of the test chains: the local chain's own (precompiled in `src/devchain/artifacts.ts`,
 * exactly what the package ships) plus the test-only contracts of `test/contracts/`, compiled with
 * solc-js and the project's settings (scripts/contracts.ts). The test-only output is cached in memory
 * and in the gitignored `.tmp/solc/`, keyed by a hash of the sources and the compiler version, so
 * only the first test run after a change pays for the compile.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Abi, Hex } from 'viem'
import { compileSolidity, readSources, repositoryRoot, solcSettings, solcVersion, type CompiledContract } from '../../scripts/contracts.js'
import { localChainArtifacts } from '../../src/devchain/artifacts.js'

export type { CompiledContract }

const testContractsDir = join(repositoryRoot, 'test/contracts')
const cacheDir = join(repositoryRoot, '.tmp/solc')

/** The local chain's contracts (contracts/) and the test-only ones (test/contracts/). */
export type ContractName = keyof typeof localChainArtifacts | 'InconsistentHub' | 'TestSmartWallet' | 'CountedSignProtocol'

const testOnly = ['InconsistentHub', 'TestSmartWallet', 'CountedSignProtocol'] as const

let compiled: Promise<Record<ContractName, CompiledContract>> | undefined

/** Every contract a test chain may use. */
export function compileContracts(): Promise<Record<ContractName, CompiledContract>> {
  compiled ??= load()
  return compiled
}

async function load(): Promise<Record<ContractName, CompiledContract>> {
  const local = Object.fromEntries(
    Object.entries(localChainArtifacts).map(([name, artifact]) => [
      name,
      { abi: artifact.abi as unknown as Abi, bytecode: artifact.bytecode as Hex, deployedBytecode: artifact.deployedBytecode as Hex },
    ]),
  ) as Record<keyof typeof localChainArtifacts, CompiledContract>
  return { ...local, ...(await compileTestContracts()) }
}

async function compileTestContracts(): Promise<Record<(typeof testOnly)[number], CompiledContract>> {
  const sources = await readSources(testContractsDir)
  const key = createHash('sha256').update(solcVersion()).update(JSON.stringify({ sources, solcSettings })).digest('hex').slice(0, 16)
  const cacheFile = join(cacheDir, `${key}.json`)
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as Record<(typeof testOnly)[number], CompiledContract>
  } catch {
    // Not cached yet: compile below.
  }
  const result = compileSolidity(sources)
  for (const name of testOnly) {
    if (!result[name]) throw new Error(`no contract ${name} in test/contracts/`)
  }
  // Write to a temporary name and rename, so parallel test workers never read half a file.
  await mkdir(cacheDir, { recursive: true })
  const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`
  await writeFile(temporary, JSON.stringify(result))
  await rename(temporary, cacheFile)
  return result as Record<(typeof testOnly)[number], CompiledContract>
}
