/**
 * anvil (Foundry's node, the `@foundry-rs/anvil` devDependency) as the benchmark's local node: a
 * process of its own on 127.0.0.1, reached over HTTP JSON-RPC. Only the benchmark uses it (and a
 * test that skips when the binary is absent); the chain tests run on EDR (harness.ts).
 *
 * The binary comes from the platform package (`@foundry-rs/anvil-<platform>-<arch>`), resolved as
 * the package's own `bin.mjs` does; npm may not run `@foundry-rs/anvil`'s postinstall, which would
 * otherwise download it.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer, type AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { NodeRpcError, genesisDate, type Eip1193 } from './harness.js'

/** The platform packages of `@foundry-rs/anvil`, by `process.platform` and `process.arch`. */
const platformPackages: Record<string, Record<string, string>> = {
  darwin: { x64: '@foundry-rs/anvil-darwin-amd64', arm64: '@foundry-rs/anvil-darwin-arm64' },
  linux: { x64: '@foundry-rs/anvil-linux-amd64', arm64: '@foundry-rs/anvil-linux-arm64' },
  win32: { x64: '@foundry-rs/anvil-win32-amd64' },
}

/** The anvil binary of this platform, or undefined when its package is not installed. */
export function anvilBinary(): string | undefined {
  const name = platformPackages[process.platform]?.[process.arch]
  if (!name) return undefined
  try {
    const packageJson = createRequire(import.meta.url).resolve(`${name}/package.json`)
    const binary = join(dirname(packageJson), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
    return existsSync(binary) ? binary : undefined
  } catch {
    return undefined
  }
}

/** The version anvil reports (`anvil --version`, first line), e.g. `1.7.1`. */
export function anvilVersion(binary = anvilBinary()): string | undefined {
  if (!binary) return undefined
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 })
  return /Version:\s*(\S+)/.exec(result.stdout ?? '')?.[1]
}

/** A free TCP port on 127.0.0.1 (the OS picks it; anvil is then told to listen on it). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export type AnvilOptions = {
  /** Default 10 (Optimism), so the built-in constants apply unchanged. */
  chainId?: number
  /** Block gas limit; raise it for bulk set-up (the bench). Default 100M. */
  blockGasLimit?: bigint | number
  /** Genesis time; default 2025-01-01T00:00:00Z, as the EDR test chains. */
  initialDate?: string
  /** EVM hardfork; default cancun, as the EDR test chains. */
  hardfork?: string
  /** More anvil arguments, appended. */
  extraArgs?: readonly string[]
  /** How long to wait for the node to answer `eth_chainId`. Default 30 s. */
  startTimeoutMs?: number
}

export type AnvilNode = {
  /** The node's JSON-RPC endpoint on 127.0.0.1. */
  url: string
  pid: number
  /** The command-line arguments anvil was started with. */
  args: string[]
  /** An EIP-1193 provider over HTTP (for set-up: seeding, mining). */
  provider: Eip1193
  /** Stops the node (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  close(): Promise<void>
}

/** Posts one JSON-RPC request; node errors are thrown as `NodeRpcError`. */
export function httpProvider(url: string): Eip1193 {
  let id = 0
  return {
    async request({ method, params }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      })
      const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
      if (answer.error) throw new NodeRpcError(answer.error.message, answer.error.code, answer.error.data)
      return answer.result
    },
  }
}

/**
 * anvil automines, but in a task of its own: `eth_sendTransaction` answers with the hash before the
 * transaction's block exists, so a receipt asked for right away can be null (EDR answers once the
 * block is mined). This provider answers `eth_sendTransaction` once the receipt exists, so set-up
 * code written for EDR (harness.ts: send, then read the receipt) runs unchanged.
 */
export function awaitingMining(provider: Eip1193, timeoutMs = 60_000): Eip1193 {
  return {
    async request(args) {
      const result = await provider.request(args)
      if (args.method !== 'eth_sendTransaction') return result
      const deadline = performance.now() + timeoutMs
      while ((await provider.request({ method: 'eth_getTransactionReceipt', params: [result] })) === null) {
        if (performance.now() > deadline) throw new Error(`transaction ${String(result)} not mined within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      return result
    },
  }
}

/**
 * Starts anvil on 127.0.0.1 at a free port, in a process of its own: one funded unlocked account
 * (hardhat's and anvil's well-known first test key), automine, quiet; waits until it answers
 * `eth_chainId`. The node is killed when this process exits, should `close` not have been called.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const binary = anvilBinary()
  if (!binary) throw new Error(`no anvil binary for ${process.platform}-${process.arch} (the @foundry-rs/anvil platform package is not installed)`)
  let lastError: unknown
  // The port is free when picked; another process could take it before anvil binds it: retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await spawnAnvil(binary, await freePort(), options)
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

async function spawnAnvil(binary: string, port: number, options: AnvilOptions): Promise<AnvilNode> {
  const chainId = options.chainId ?? 10
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--gas-limit',
    String(options.blockGasLimit ?? 100_000_000),
    '--hardfork',
    options.hardfork ?? 'cancun',
    '--timestamp',
    String(Math.floor(Date.parse(options.initialDate ?? genesisDate) / 1000)),
    '--accounts',
    '1',
    '--balance',
    '1000000',
    '--quiet',
    ...(options.extraArgs ?? []),
  ]
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000)
  })
  let exitCode: number | null | undefined
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code
      resolve()
    })
    // Not started at all (no such file, not executable): there will be no exit event.
    child.once('error', () => {
      exitCode ??= null
      resolve()
    })
  })
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject))
  spawnError.catch(() => {})
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)

  const url = `http://127.0.0.1:${port}`
  const provider = awaitingMining(httpProvider(url))
  const close = async () => {
    process.off('exit', killOnExit)
    if (exitCode !== undefined) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  const deadline = performance.now() + (options.startTimeoutMs ?? 30_000)
  try {
    for (;;) {
      if (exitCode !== undefined) throw new Error(`anvil exited (${String(exitCode)}) before answering: ${stderr.trim()}`)
      try {
        const answered = await Promise.race([provider.request({ method: 'eth_chainId' }), spawnError])
        if (Number(answered) !== chainId) throw new Error(`anvil answered chain id ${String(answered)}, expected ${chainId}`)
        break
      } catch (error) {
        if (error instanceof NodeRpcError || (error instanceof Error && error.message.startsWith('anvil answered'))) throw error
        if ((error as { code?: unknown }).code === 'ENOENT' || (error as { code?: unknown }).code === 'EACCES') throw error
        if (performance.now() > deadline) throw new Error(`anvil did not answer within ${options.startTimeoutMs ?? 30_000} ms: ${stderr.trim()}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
  } catch (error) {
    await close()
    throw error
  }
  return { url, pid: child.pid as number, args, provider, close }
}
