/**
 * The guard that fails a run leaving files behind (test/helpers/temp-guard.ts, the suite's global
 * setup), run here on its own: a leak is listed and sets exit code 1, a clean run passes, and the
 * run's temp folder is removed either way.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import setup from './temp-guard.js'
import { root } from './built.js'

describe('temp guard', () => {
  const exitCode = process.exitCode
  afterEach(() => {
    process.exitCode = exitCode
    vi.restoreAllMocks()
  })

  test('a file left in the temp folder, even by a child process, is listed and fails the run', () => {
    const outer = tmpdir()
    const teardown = setup()
    const runFolder = tmpdir()
    expect(runFolder).not.toBe(outer)
    expect(process.env.TMPDIR).toBe(runFolder)
    writeFileSync(join(mkdtempSync(join(tmpdir(), 'leaky-')), 'state.json'), '{}')
    spawnSync(process.execPath, ['-e', "require('fs').writeFileSync(require('path').join(require('os').tmpdir(), 'child.txt'), 'x')"])
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    teardown()
    expect(tmpdir()).toBe(outer)
    expect(existsSync(runFolder)).toBe(false)
    expect(process.exitCode).toBe(1)
    const printed = String(error.mock.calls[0]?.[0])
    expect(printed).toContain('the suite left 2 file(s) behind')
    expect(printed).toMatch(/^ {2}child\.txt$/m)
    expect(printed).toMatch(/^ {2}leaky-\w+\/state\.json$/m)
  })

  test('a new entry in the repository\'s .tmp/ fails the run; the solc cache does not', () => {
    const repoTmp = join(root, '.tmp')
    const created = [repoTmp, join(repoTmp, 'solc')].filter((folder) => !existsSync(folder))
    const teardown = setup()
    mkdirSync(join(repoTmp, 'solc'), { recursive: true })
    const leaked = mkdtempSync(join(repoTmp, 'leaked-'))
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      teardown()
    } finally {
      rmSync(leaked, { recursive: true, force: true })
      for (const folder of created.reverse()) rmSync(folder, { recursive: true, force: true })
    }
    expect(process.exitCode).toBe(1)
    const printed = String(error.mock.calls[0]?.[0])
    expect(printed).toContain(`.tmp/${leaked.split('/').pop()}`)
    expect(printed).not.toContain('.tmp/solc')
  })

  test('a run that cleans up passes', () => {
    const teardown = setup()
    const runFolder = tmpdir()
    rmSync(mkdtempSync(join(tmpdir(), 'tidy-')), { recursive: true })
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    teardown()
    expect(existsSync(runFolder)).toBe(false)
    expect(process.exitCode).toBe(exitCode)
    expect(error).not.toHaveBeenCalled()
  })
})
