// Generated from personhood src/rules/decimals.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * Exact decimals: Passport scores and thresholds are read, compared and rounded as decimals, never
 * in floating point.
 *
 * It imports nothing: `npm run strategies:rules` copies it verbatim into each score-api folder that
 * uses it. Written in score-api's prettier style; compiles under TypeScript 4.7 (CommonJS) as under
 * the package's own settings.
 */

/** Decimal places of v2 Passport scores and thresholds: "20.00000". */
export const v2DecimalPlaces = 5;

/** Exponents beyond this are refused: hostile input would make bigint arithmetic explode. */
export const maxDecimalExponent = 1000;

const decimalPattern = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal read exactly: `(negative ? -1 : 1) * coefficient * 10^exponent`. */
export type DecimalParts = {
  negative: boolean;
  coefficient: bigint;
  exponent: number;
};

/**
 * Reads a decimal exactly: a string ("0.208", "-1.5", "2E-9"), a finite number (through its
 * shortest round-trip form) or an integer bigint. Throws a RangeError on anything else.
 */
export function readDecimal(value: number | string | bigint): DecimalParts {
  if (typeof value === 'bigint') {
    return {
      negative: value < 0n,
      coefficient: value < 0n ? -value : value,
      exponent: 0
    };
  }
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new RangeError(`Cannot read ${value} as a decimal.`);
    }
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw new TypeError(`Cannot read a ${typeof value} as a decimal.`);
  }
  const match = decimalPattern.exec(text);
  const sign = match?.[1] ?? '';
  const integer = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  const exponentText = match?.[4] ?? '0';
  if (!match || (integer === '' && fraction === '')) {
    throw new RangeError(`"${text.slice(0, 100)}" is not a decimal number.`);
  }
  const exponent = Number(exponentText) - fraction.length;
  if (
    !Number.isSafeInteger(exponent) ||
    Math.abs(exponent) > maxDecimalExponent
  ) {
    throw new RangeError(
      `"${text.slice(0, 100)}" has an exponent out of range.`
    );
  }
  return {
    negative: sign === '-',
    coefficient: BigInt(integer + fraction),
    exponent
  };
}

/** Checks a count of decimal places (0 to 1000); throws a RangeError otherwise. */
export function checkDecimalPlaces(places: number, name = 'places'): void {
  if (
    !Number.isSafeInteger(places) ||
    places < 0 ||
    places > maxDecimalExponent
  ) {
    throw new RangeError(
      `${name} must be an integer from 0 to ${maxDecimalExponent}, got ${places}.`
    );
  }
}

function divideHalfEven(n: bigint, d: bigint): bigint {
  const quotient = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder > d || (twiceRemainder === d && quotient % 2n === 1n)) {
    return quotient + 1n;
  }
  return quotient;
}

/** The decimal as a signed integer count of `10^-places`, rounded half to even. */
export function decimalToUnits(parts: DecimalParts, places: number): bigint {
  const shift = parts.exponent + places;
  const magnitude =
    shift >= 0
      ? parts.coefficient * 10n ** BigInt(shift)
      : divideHalfEven(parts.coefficient, 10n ** BigInt(-shift));
  return parts.negative ? -magnitude : magnitude;
}

/** Writes an integer count of `10^-places` with exactly `places` decimals ("-0" is never written). */
export function unitsToDecimal(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units)
    .toString()
    .padStart(places + 1, '0');
  const integer = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${integer}${places > 0 ? `.${fraction}` : ''}`;
}

/** Formats a decimal with exactly `places` decimals, rounding half to even, never in floating point. */
export function formatDecimal(
  value: number | string | bigint,
  places: number
): string {
  checkDecimalPlaces(places);
  return unitsToDecimal(decimalToUnits(readDecimal(value), places), places);
}

/** Compares two decimals exactly: -1 when `a < b`, 0 when equal, 1 when `a > b`. */
export function compareDecimals(
  a: number | string | bigint,
  b: number | string | bigint
): -1 | 0 | 1 {
  const left = readDecimal(a);
  const right = readDecimal(b);
  const scale = Math.max(0, -left.exponent, -right.exponent);
  const difference = decimalToUnits(left, scale) - decimalToUnits(right, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
