/**
 * A progress line for long CLI runs: done / total, rate, and an ETA that counts the waits the rate
 * limiter has announced (a tier-1 key can make a run wait minutes for budget: the line says so
 * instead of sitting still, and counts down each second). On a terminal the line redraws in place.
 * Piped or in CI, a plain line is printed every {@link progressLineEveryMs} (done, total, rate,
 * ETA) while the run lasts, and one when it ends, so a log never sits silent; a run shorter than
 * that prints nothing. A wait over {@link announcedWaitMs} is announced on a line of its own, with
 * when it ends, either way.
 */

/** A wait for rate budget longer than this is announced on its own line (5 s). */
export const announcedWaitMs = 5_000

/** When the output is not a terminal: a progress line at most this often, and at least while work goes on (5 s). */
export const progressLineEveryMs = 5_000

/** Parameters of {@link createProgress}. */
export type CreateProgressParameters = {
  label: string
  total: number
  /** Where to draw. Default process.stderr. Nothing is drawn unless it is a TTY (or `force`). */
  stream?: { isTTY?: boolean; write(text: string): unknown; columns?: number } | undefined
  /** Draw even when the stream is not a TTY (tests). */
  force?: boolean | undefined
  /** The clock in ms. Default Date.now. */
  now?: () => number
  /** Least time between two redraws. Default 100 ms. */
  minIntervalMs?: number | undefined
  /** Calls `tick` every `ms` until the returned function is called (the countdown, the lines of a pipe). Default setInterval, unref'd. */
  every?: ((ms: number, tick: () => void) => () => void) | undefined
  /** When the stream is not a terminal: a line this often. Default {@link progressLineEveryMs}. */
  lineEveryMs?: number | undefined
}

/** A progress line. */
export type Progress = {
  /** `count` more units done. */
  tick(count?: number): void
  /** The rate limiter will hold the next request for `waitMs` (hook it to the transport's `onWait`). */
  waiting(waitMs: number, budget?: string): void
  /** The current ETA in ms (undefined before the first unit is done). */
  eta(): number | undefined
  /** Clears the line. */
  done(): void
}

/** 12345 -> '12,345'. */
const grouped = (value: number) => value.toLocaleString('en-US')

/** Units a second, with a useful precision: 0.25, 3.4, 240. */
function formatRate(perSecond: number): string {
  return perSecond >= 10 ? grouped(Math.round(perSecond)) : perSecond >= 1 ? perSecond.toFixed(1) : perSecond.toFixed(2)
}

function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`
}

/**
 * Creates a progress line.
 *
 * @example
 * const progress = createProgress({ label: 'Judging voters', total: votes.length })
 * const passport = createPassportClient({ apiKey, onWait: ({ waitMs }) => progress.waiting(waitMs, 'scoring') })
 */
export function createProgress(parameters: CreateProgressParameters): Progress {
  const stream = parameters.stream ?? process.stderr
  const now = parameters.now ?? Date.now
  const enabled = parameters.force === true || stream.isTTY === true
  const lineEvery = parameters.lineEveryMs ?? progressLineEveryMs
  const minInterval = parameters.minIntervalMs ?? 100
  const started = now()
  let completed = 0
  let waitUntil = 0
  let waitBudget: string | undefined
  let lastDraw = -Infinity
  let drawn = false
  let announcedUntil = 0
  let stopCountdown: (() => void) | undefined
  const every =
    parameters.every ??
    ((ms: number, tick: () => void) => {
      const timer = setInterval(tick, ms)
      timer.unref?.()
      return () => clearInterval(timer)
    })

  const eta = (): number | undefined => {
    const at = now()
    const pendingWait = Math.max(0, waitUntil - at)
    if (completed === 0) return pendingWait || undefined
    // Time spent so far per unit, not counting the part of a wait that is still ahead.
    const perUnit = Math.max(0, at - started) / completed
    return perUnit * Math.max(0, parameters.total - completed) + pendingWait
  }

  const draw = (force = false) => {
    if (!enabled) return
    const at = now()
    if (!force && at - lastDraw < minInterval) return
    lastDraw = at
    const share = parameters.total ? completed / parameters.total : 1
    const width = 24
    const filled = Math.round(share * width)
    const remaining = eta()
    const waitingFor = waitUntil > at ? ` · waiting ${formatDuration(waitUntil - at)} for ${waitBudget ?? 'rate'} budget` : ''
    // What changes (the count, a wait) comes first, so a narrow terminal cuts the bar, not the news.
    const line = `${parameters.label} ${completed}/${parameters.total}${waitingFor}${remaining === undefined ? '' : ` · ETA ${formatDuration(remaining)}`} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`
    stream.write(`\r${line.slice(0, (stream.columns ?? 120) - 1)}\x1b[K`)
    drawn = true
  }

  // Not a terminal: plain lines, one every `lineEvery` while the work lasts (a heartbeat, so a
  // stalled source shows too), and a closing one if any was printed.
  let lastLine = started
  let lines = 0
  const line = (final = false) => {
    const at = now()
    const elapsed = Math.max(0, at - started)
    const rate = elapsed > 0 ? (completed * 1000) / elapsed : 0
    const share = parameters.total ? Math.floor((completed / parameters.total) * 100) : 100
    const remaining = eta()
    const waitingFor = waitUntil > at ? `, waiting ${formatDuration(waitUntil - at)} for ${waitBudget ?? 'rate'} budget` : ''
    const tail = final ? ` in ${formatDuration(elapsed)}` : `${waitingFor}${remaining === undefined ? '' : `, ETA ${formatDuration(remaining)}`}`
    stream.write(`${parameters.label}: ${grouped(completed)}/${grouped(parameters.total)} (${share}%), ${formatRate(rate)} a second${tail}\n`)
    lastLine = at
    lines++
  }
  const heartbeat = () => {
    if (now() - lastLine >= lineEvery) line()
  }
  let stopLines = enabled ? undefined : every(lineEvery, heartbeat)

  return {
    tick(count = 1) {
      completed = Math.min(parameters.total, completed + count)
      draw(completed === parameters.total)
      if (!enabled) heartbeat()
    },
    waiting(waitMs, budget) {
      const at = now()
      waitUntil = Math.max(waitUntil, at + waitMs)
      waitBudget = budget
      // A long wait is announced once (again only when it moves later by more than the threshold).
      if (waitMs > announcedWaitMs && waitUntil > announcedUntil + announcedWaitMs) {
        announcedUntil = waitUntil
        const until = new Date(waitUntil).toISOString().replace(/\.\d{3}Z$/, 'Z')
        stream.write(`${enabled && drawn ? '\r\x1b[K' : ''}Waiting ${formatDuration(waitUntil - at)} for ${budget ?? 'rate'} budget, until ${until}: a key of a higher tier (PASSPORT_API_TIER) waits less; --max-wait bounds it.\n`)
      }
      draw(true)
      if (enabled && !stopCountdown) {
        stopCountdown = every(1000, () => {
          draw(true)
          if (now() >= waitUntil) {
            stopCountdown?.()
            stopCountdown = undefined
          }
        })
      }
    },
    eta,
    done() {
      stopCountdown?.()
      stopCountdown = undefined
      if (enabled && drawn) stream.write('\r\x1b[K')
      if (stopLines) {
        stopLines()
        stopLines = undefined
        if (lines > 0) line(true)
      }
    },
  }
}
