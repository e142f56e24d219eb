/**
 * The strategy server's metrics in Prometheus text format (version 0.0.4): counters by label and
 * one latency histogram. No dependency: the format is a few lines of text.
 */

/** Latency buckets, seconds. */
export const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const

type Labels = Readonly<Record<string, string>>

function labelText(labels: Labels): string {
  const entries = Object.entries(labels)
  if (entries.length === 0) return ''
  return `{${entries.map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`
}

/** The metrics of one server. */
export type StrategyServerMetrics = {
  /** Adds `by` to counter `name` with `labels`. */
  count(name: CounterName, labels: Labels, by?: number): void
  /** Records one request's latency, seconds. */
  observe(strategy: string, seconds: number): void
  /** The value of a counter summed over label sets that include `labels`. */
  total(name: CounterName, labels?: Labels): number
  /** Everything, in Prometheus text format; `gauges` are read at that moment. */
  render(gauges?: Readonly<Record<string, number>>): string
}

/** Counters and what they count. */
export const counterHelp = {
  personhood_strategy_requests_total: 'Requests answered, by route, strategy and status.',
  personhood_strategy_upstream_requests_total: 'Requests sent to the sources, by source (as the strategies name them).',
  personhood_strategy_upstream_http_requests_total: 'HTTP requests sent upstream (JSON-RPC and APIs), by host.',
  personhood_strategy_cache_hits_total: 'Addresses answered from the answer store, by strategy.',
  personhood_strategy_cache_misses_total: 'Addresses that needed a strategy run, by strategy.',
  personhood_strategy_runs_total: 'Strategy runs (one run serves every concurrent call of a snapshot), by strategy.',
  personhood_strategy_late_answers_total: 'Calls answered 503 (Retry-After) because their answer took longer than answerWithinMs; their runs went on.',
} as const

/** The name of one of the server's Prometheus counters (listed in docs/strategy-server.md). */
export type CounterName = keyof typeof counterHelp

/** Creates an empty metrics registry. */
export function createStrategyServerMetrics(): StrategyServerMetrics {
  const counters = new Map<CounterName, Map<string, { labels: Labels; value: number }>>()
  const histograms = new Map<string, { buckets: number[]; sum: number; count: number }>()
  return {
    count(name, labels, by = 1) {
      let series = counters.get(name)
      if (!series) counters.set(name, (series = new Map()))
      const key = labelText(labels)
      const entry = series.get(key)
      if (entry) entry.value += by
      else series.set(key, { labels, value: by })
    },
    observe(strategy, seconds) {
      let histogram = histograms.get(strategy)
      if (!histogram) histograms.set(strategy, (histogram = { buckets: latencyBuckets.map(() => 0), sum: 0, count: 0 }))
      latencyBuckets.forEach((bound, index) => {
        if (seconds <= bound) histogram.buckets[index] = (histogram.buckets[index] as number) + 1
      })
      histogram.sum += seconds
      histogram.count += 1
    },
    total(name, labels = {}) {
      let sum = 0
      for (const entry of counters.get(name)?.values() ?? []) {
        if (Object.entries(labels).every(([label, value]) => entry.labels[label] === value)) sum += entry.value
      }
      return sum
    },
    render(gauges = {}) {
      const lines: string[] = []
      for (const [name, help] of Object.entries(counterHelp) as [CounterName, string][]) {
        lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`)
        for (const [key, entry] of counters.get(name) ?? []) lines.push(`${name}${key} ${entry.value}`)
      }
      const latency = 'personhood_strategy_request_duration_seconds'
      lines.push(`# HELP ${latency} Time to answer a strategy call, by strategy.`, `# TYPE ${latency} histogram`)
      for (const [strategy, histogram] of histograms) {
        latencyBuckets.forEach((bound, index) => lines.push(`${latency}_bucket${labelText({ strategy, le: String(bound) })} ${histogram.buckets[index]}`))
        lines.push(`${latency}_bucket${labelText({ strategy, le: '+Inf' })} ${histogram.count}`)
        lines.push(`${latency}_sum${labelText({ strategy })} ${histogram.sum}`, `${latency}_count${labelText({ strategy })} ${histogram.count}`)
      }
      for (const [name, value] of Object.entries(gauges)) lines.push(`# TYPE ${name} gauge`, `${name} ${value}`)
      return `${lines.join('\n')}\n`
    },
  }
}
