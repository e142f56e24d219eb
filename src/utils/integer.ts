/**
 * Reading an integer without throwing, with no dependency: the command line's option parsers use it
 * when the program starts, before any command loads viem (`./parse.js` re-exports it).
 */

/** Bounds of an integer (parseInteger in ./parse.js takes them too). */
export type IntegerBounds = { min?: number | undefined; max?: number | undefined }

/**
 * Reads an integer without throwing: a safe integer number, or (with `strings`) a string of
 * decimal digits with an optional minus sign; undefined when it is not one or is out of bounds.
 */
export function tryParseInteger(value: unknown, bounds: IntegerBounds & { strings?: boolean } = {}): number | undefined {
  let parsed: number | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = value
  else if (bounds.strings && typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value)) parsed = Number(value)
  if (parsed === undefined || !Number.isSafeInteger(parsed)) return undefined
  if ((bounds.min !== undefined && parsed < bounds.min) || (bounds.max !== undefined && parsed > bounds.max)) return undefined
  return parsed === 0 ? 0 : parsed // never -0
}
