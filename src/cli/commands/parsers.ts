/**
 * How the commands read an option's text: each parser returns the value or throws commander's
 * `InvalidArgumentError`, which commander reports as a usage error (exit 2) naming the option.
 */
import { InvalidArgumentError } from 'commander'
import { tryParseInteger } from '../../utils/integer.js'

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** `--max-wait`: a duration (`90s`, `15m`, `1h`, `500ms`; a bare number is seconds), in ms. */
export function duration(value: string): number {
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(value.trim())
  if (!match) throw new InvalidArgumentError('--max-wait must be a duration such as 90s, 15m or 1h (a bare number is seconds).')
  return Number(match[1]) * durationUnits[match[2] ?? 's']!
}

/** An integer option from `min` to `max`. */
export function integer(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = tryParseInteger(value, { min, max, strings: true })
    if (parsed === undefined) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`)
    return parsed
  }
}

/** A percentage from 0 to 100. */
export function percent(value: string): number {
  const parsed = Number(value)
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 100) throw new InvalidArgumentError('must be a percentage from 0 to 100.')
  return parsed
}

/** One of a few words. */
export function oneOf<const word extends string>(name: string, words: readonly word[]): (value: string) => word {
  return (value) => {
    const found = words.find((candidate) => candidate === value)
    if (found === undefined) throw new InvalidArgumentError(`${name} must be ${words.slice(0, -1).join(', ')} or ${words.at(-1)}.`)
    return found
  }
}

/** A comma-separated list, each item trimmed. */
export function list(value: string): string[] {
  return value.split(',').map((item) => item.trim())
}
