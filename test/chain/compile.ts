/**
 * Compiles the Solidity test contracts in `test/contracts/` with solc-js (the compiler ships inside
 * the `solc` package: nothing is downloaded). The output is cached in memory and in the gitignored
 * `.tmp/solc/`, keyed by a hash of the sources and the compiler version, so only the first test run
 * after a change pays for the compile.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '../..')
const contractsDir = join(root, 'test/contracts')
const cacheDir = join(root, '.tmp/solc')

/** One compiled contract: its ABI, creation bytecode and runtime (deployed) bytecode. */
export type CompiledContract = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }

/** The names of the test contracts (file name = contract name). */
export type ContractName = 'TestHub' | 'TestLegacyStore' | 'TestSignProtocol' | 'Multicall3' | 'InconsistentHub' | 'TestSmartWallet'

type Solc = { version(): string; compile(input: string): string }

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[]
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >
}

let compiled: Promise<Record<ContractName, CompiledContract>> | undefined

/** Compiles (or loads from the cache) every contract in `test/contracts/`. */
export function compileContracts(): Promise<Record<ContractName, CompiledContract>> {
  compiled ??= load()
  return compiled
}

async function load(): Promise<Record<ContractName, CompiledContract>> {
  const files = (await readdir(contractsDir)).filter((file) => file.endsWith('.sol')).sort()
  const sources: Record<string, { content: string }> = {}
  for (const file of files) sources[file] = { content: await readFile(join(contractsDir, file), 'utf8') }

  const require = createRequire(import.meta.url)
  const solcVersion = (require('solc/package.json') as { version: string }).version
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const key = createHash('sha256').update(solcVersion).update(JSON.stringify(input)).digest('hex').slice(0, 16)
  const cacheFile = join(cacheDir, `${key}.json`)
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as Record<ContractName, CompiledContract>
  } catch {
    // Not cached yet: compile below.
  }

  const solc = require('solc') as Solc
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`)

  const result: Partial<Record<ContractName, CompiledContract>> = {}
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      if (`${name}.sol` !== file) continue
      result[name as ContractName] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      }
    }
  }
  for (const name of ['TestHub', 'TestLegacyStore', 'TestSignProtocol', 'Multicall3', 'InconsistentHub', 'TestSmartWallet'] as const) {
    if (!result[name]) throw new Error(`solc output has no contract ${name} (expected in test/contracts/${name}.sol)`)
  }

  // Write to a temporary name and rename, so parallel test workers never read half a file.
  await mkdir(cacheDir, { recursive: true })
  const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`
  await writeFile(temporary, JSON.stringify(result))
  await rename(temporary, cacheFile)
  return result as Record<ContractName, CompiledContract>
}
