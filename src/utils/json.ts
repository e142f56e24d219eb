/**
 * JSON that carries bigints: one way for every `--json` output, report and evidence. `JSON.stringify`
 * throws on a bigint; here a bigint is written as its decimal string (exact at any size, and what a
 * reader passes back to `BigInt`).
 */

/** Options of {@link stringifyJson}. */
export type StringifyJsonOptions = {
  /** Spaces to indent with; default none (one line). */
  indent?: number | undefined
  /** Sort object keys, so one value has one text (for digests). Default false. */
  sortKeys?: boolean | undefined
}

function replacer(sortKeys: boolean) {
  return (_key: string, item: unknown): unknown => {
    if (typeof item === 'bigint') return item.toString()
    if (sortKeys && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const entries = Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      return Object.fromEntries(entries)
    }
    return item
  }
}

/**
 * `JSON.stringify` that writes bigints as decimal strings (`12n` -> `"12"`) and can sort keys.
 * Everything else is as `JSON.stringify` writes it (a Date through its `toJSON`, `undefined`
 * properties left out).
 *
 * @example
 * import { stringifyJson } from 'personhood'
 * stringifyJson({ blockNumber: 130000000n, valid: true }) // '{"blockNumber":"130000000","valid":true}'
 */
export function stringifyJson(value: unknown, options: StringifyJsonOptions = {}): string {
  return JSON.stringify(value, replacer(options.sortKeys === true), options.indent)
}

/**
 * The JSON value `value` stands for: what `JSON.parse(stringifyJson(value))` gives (bigints as
 * decimal strings, Dates as ISO strings, `undefined` properties left out). For evidence and
 * results handed to code that serializes them its own way.
 *
 * @example
 * import { toJson } from 'personhood'
 * toJson({ expiry: 1800000000n, at: new Date(0) }) // { expiry: '1800000000', at: '1970-01-01T00:00:00.000Z' }
 */
export function toJson(value: unknown): unknown {
  const text = stringifyJson(value)
  return text === undefined ? undefined : (JSON.parse(text) as unknown)
}
