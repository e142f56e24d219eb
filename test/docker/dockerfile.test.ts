/**
 * The Dockerfile builds and runs, checked without a container engine: every file it COPYs from the
 * repository exists, and its steps are replayed in a scratch folder, one folder per stage (WORKDIR
 * inside it): the COPYs (from the repository, or `--from` the build stage), every `npm` RUN as
 * written (install, build, the production install; npm's cache is shared for the installs, a
 * scratch one where a RUN cleans it), then the image's ENTRYPOINT with `--help`, and the server it
 * starts with the image's ENV (the port, host and store remapped into the scratch folder) answering
 * the image's HEALTHCHECK command. A RUN that only prepares the volume (`mkdir`, `chown`) is done
 * as a folder. So a broken COPY, a build that needs a file not copied, or a production dependency
 * missing from package.json fails here.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')

type Instruction = { keyword: string; text: string }
type Stage = { name: string | undefined; instructions: Instruction[] }

/** The Dockerfile's stages and instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
  const stages: Stage[] = []
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/)
    const text = rest.join(' ')
    if (keyword.toUpperCase() === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(text)?.[1], instructions: [] })
    else stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), text })
  }
  return stages
}

/** ENV `A=1 B=2` (the only form used). */
function readEnv(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [match[1]!, match[2]!.replace(/^"|"$/g, '')]))
}

const stages = parseDockerfile(dockerfile)
const scratch = mkdtempSync(join(tmpdir(), 'dockerfile-replay-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 600_000)

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

describe('Dockerfile', () => {
  it('copies only files that exist', () => {
    const missing: string[] = []
    for (const stage of stages) {
      for (const { keyword, text } of stage.instructions) {
        if (keyword !== 'COPY' || text.startsWith('--from')) continue
        const sources = text.split(/\s+/).slice(0, -1)
        for (const source of sources) if (!existsSync(join(root, source))) missing.push(source)
      }
    }
    expect(missing).toEqual([])
    expect(stages.length).toBe(2)
  })

  it('replays: install, build, production install, the entrypoint with --help, and a health check', async () => {
    const folders = new Map<string, string>()
    let image: { workdir: string; env: Record<string, string>; entrypoint: string[]; healthcheck: string[] } | undefined
    for (const [index, stage] of stages.entries()) {
      const base = join(scratch, `stage-${index}`)
      let workdir = base
      let env: Record<string, string> = {}
      let entrypoint: string[] = []
      let healthcheck: string[] = []
      for (const { keyword, text } of stage.instructions) {
        if (keyword === 'WORKDIR') {
          workdir = join(base, text)
          mkdirSync(workdir, { recursive: true })
        } else if (keyword === 'COPY') {
          const from = /^--from=(\S+)\s+/.exec(text)
          const parts = text.replace(/^--from=\S+\s+/, '').split(/\s+/)
          const target = parts.at(-1)!
          // From the repository, or from another stage's root (`--from=build /app/dist`).
          const sourceRoot = from ? folders.get(from[1]!)! : root
          for (const source of parts.slice(0, -1)) {
            const destination = target.endsWith('/') || parts.length > 2 ? join(workdir, target, source.split('/').at(-1)!) : join(workdir, target)
            cpSync(join(sourceRoot, source), destination, { recursive: true })
          }
        } else if (keyword === 'ENV') env = { ...env, ...readEnv(text) }
        else if (keyword === 'RUN') {
          if (!/^npm\s/.test(text)) {
            // Volume preparation (mkdir -p /data && chown ...): the folder, inside the scratch root.
            for (const path of text.match(/\s(\/[\w/.-]+)/g) ?? []) mkdirSync(join(base, path.trim()), { recursive: true })
            continue
          }
          const cache = /npm cache clean/.test(text) ? join(base, 'npm-cache') : undefined
          const ran = spawnSync('sh', ['-c', text], {
            cwd: workdir,
            env: { ...process.env, ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...(cache ? { npm_config_cache: cache } : {}) },
            encoding: 'utf8',
            timeout: 900_000,
          })
          expect(ran.status, `RUN ${text}\n${ran.stdout.slice(-2000)}\n${ran.stderr.slice(-4000)}`).toBe(0)
        } else if (keyword === 'ENTRYPOINT') entrypoint = JSON.parse(text) as string[]
        else if (keyword === 'HEALTHCHECK') healthcheck = JSON.parse(text.slice(text.indexOf('CMD') + 3).trim()) as string[]
      }
      folders.set(stage.name ?? String(index), base)
      if (index === stages.length - 1) image = { workdir, env, entrypoint, healthcheck }
    }
    const { workdir, entrypoint, healthcheck } = image!
    // The runtime image holds no dev dependency and no source.
    expect(existsSync(join(workdir, 'node_modules', 'vitest'))).toBe(false)
    expect(existsSync(join(workdir, 'node_modules', 'viem'))).toBe(true)
    expect(existsSync(join(workdir, 'src'))).toBe(false)
    const [command, ...args] = entrypoint
    const help = spawnSync(command!, [...args, '--help'], { cwd: workdir, env: { PATH: process.env.PATH, ...image!.env }, encoding: 'utf8' })
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain('Usage: personhood strategy-server')
    expect(help.stdout).toContain('PERSONHOOD_STRATEGY_STORE')

    // Started as the image starts it (its ENV), on a free port of the loopback, the store in the scratch volume.
    const port = await freePort()
    const store = image!.env.PERSONHOOD_STRATEGY_STORE!
    const runEnv = { PATH: process.env.PATH!, ...image!.env, PORT: String(port), HOST: '127.0.0.1', PERSONHOOD_STRATEGY_STORE: join(scratch, `stage-${stages.length - 1}`, store), PERSONHOOD_RPC_URL_10: 'http://127.0.0.1:9/rpc' }
    const server = spawn(command!, args, { cwd: workdir, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    try {
      await new Promise<void>((resolve, reject) => {
        const check = () => (output.includes('listening on') ? resolve() : server.exitCode !== null ? reject(new Error(output)) : setImmediate(check))
        server.stdout.on('data', check)
        server.on('exit', check)
        check()
      })
      const [healthCommand, ...healthArgs] = healthcheck
      const health = spawnSync(healthCommand!, healthArgs, { cwd: workdir, env: runEnv, encoding: 'utf8' })
      expect(health.status, `${health.stderr}\n${output}`).toBe(0)
    } finally {
      server.kill('SIGTERM')
      await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.on('exit', resolve)))
    }
    expect(server.exitCode).toBe(0)
    expect(output).toContain('SIGTERM: finishing the calls in flight')
  }, 1_200_000)
})
