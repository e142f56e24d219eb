/**
 * How a long-running command stops: SIGINT and SIGTERM close it (saving its state) and exit 0, or
 * 1 when closing fails. The handlers are registered before the command says it is ready, so a
 * signal sent as soon as a caller reads the URL never finds the default handler (which would end
 * the process without the final save).
 */

/** The part of `process` the handlers use (tests pass their own). */
export type SignalTarget = {
  once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  exit(code: number): void
}

/** Parameters of {@link runUntilSignal}. */
export type RunUntilSignalParameters<running extends { close: () => Promise<void> }> = {
  /** Starts the command (binds, loads); its answer is closed on a signal. */
  start: () => Promise<running>
  /** The lines that say the command is ready (its URL first), printed once the handlers are in place. */
  describe: (running: running) => readonly string[]
  target?: SignalTarget
  log?: (line: string) => void
  error?: (message: string, cause: unknown) => void
}

/**
 * Starts a command, registers SIGINT and SIGTERM to close it, then prints that it is ready.
 *
 * @returns what `start` answered.
 * @throws what `start` throws (no handler is registered then).
 * @example
 * import { runUntilSignal } from './signals.js'
 * await runUntilSignal({ start: () => startServe(options), describe: describeServe })
 */
export async function runUntilSignal<running extends { close: () => Promise<void> }>(parameters: RunUntilSignalParameters<running>): Promise<running> {
  const { start, describe, target = process, log = console.log, error = (message, cause) => console.error(message, cause) } = parameters
  const running = await start()
  const stop = (signal: string) => {
    log(`\n${signal}: saving and stopping...`)
    running.close().then(
      () => target.exit(0),
      (cause: unknown) => {
        error('personhood: could not save state on exit:', cause)
        target.exit(1)
      },
    )
  }
  target.once('SIGINT', () => stop('SIGINT'))
  target.once('SIGTERM', () => stop('SIGTERM'))
  for (const line of describe(running)) log(line)
  return running
}
