/**
 * `serve` stops on SIGINT and SIGTERM with a final save: the handlers are registered before the
 * first line that says it is ready (its URL), so a caller that signals as soon as it reads the URL
 * never meets the default handler.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, test } from 'vitest'
import { runUntilSignal, type SignalTarget } from '../../src/cli/signals.js'

function fakeProcess() {
  const events: string[] = []
  const emitter = new EventEmitter()
  const exited: number[] = []
  const target: SignalTarget = {
    once: (signal, listener) => {
      events.push(`handler ${signal}`)
      return emitter.once(signal, listener)
    },
    exit: (code) => {
      exited.push(code)
    },
  }
  return { target, events, exited, emit: (signal: 'SIGINT' | 'SIGTERM') => emitter.emit(signal) }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('runUntilSignal', () => {
  test('registers SIGINT and SIGTERM before it prints the URL; SIGTERM saves and exits 0', async () => {
    const fake = fakeProcess()
    let closed = 0
    await runUntilSignal({
      start: async () => ({ url: 'http://127.0.0.1:1', close: async () => void closed++ }),
      describe: (running) => [`listening on ${running.url}`, 'API key: ...'],
      target: fake.target,
      log: (line) => fake.events.push(`log ${line}`),
    })
    expect(fake.events).toEqual(['handler SIGINT', 'handler SIGTERM', 'log listening on http://127.0.0.1:1', 'log API key: ...'])
    fake.emit('SIGTERM')
    await settle()
    expect(closed).toBe(1)
    expect(fake.exited).toEqual([0])
    expect(fake.events.at(-1)).toBe('log \nSIGTERM: saving and stopping...')
  })

  test('a save that fails on SIGINT exits 1 and says why', async () => {
    const fake = fakeProcess()
    const errors: unknown[] = []
    await runUntilSignal({
      start: async () => ({ close: async () => Promise.reject(new Error('disk full')) }),
      describe: () => ['ready'],
      target: fake.target,
      log: () => {},
      error: (message, cause) => errors.push(message, (cause as Error).message),
    })
    fake.emit('SIGINT')
    await settle()
    expect(fake.exited).toEqual([1])
    expect(errors).toEqual(['personhood: could not save state on exit:', 'disk full'])
  })

  test('a start that fails registers nothing and prints nothing', async () => {
    const fake = fakeProcess()
    await expect(
      runUntilSignal({ start: () => Promise.reject(new Error('port in use')), describe: () => ['ready'], target: fake.target, log: (line) => fake.events.push(line) }),
    ).rejects.toThrow('port in use')
    expect(fake.events).toEqual([])
  })
})
