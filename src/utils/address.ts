import { getAddress, type Address } from 'viem'
import { InvalidAddressError } from '../errors/input.js'

const addressPattern = /^0x[0-9a-fA-F]{40}$/

/**
 * Tells whether `value` is `0x` + 40 hex characters in any letter case, the checksum of mixed case
 * not checked: what a service that compares addresses case-insensitively takes (the attestation
 * index, E7). Everything else checks with {@link isValidAddress}.
 *
 * @example
 * isAddressInAnyCase('0x52908400098527886e0F7030069857D2E4169EE7') // true (the checksum is not read)
 */
export function isAddressInAnyCase(value: unknown): value is Address {
  return typeof value === 'string' && addressPattern.test(value)
}

/**
 * Tells whether `value` is an address this package accepts: `0x` + 40 hex characters, all lower
 * case, all upper case, or mixed case that is a valid EIP-55 checksum.
 *
 * @example
 * import { isValidAddress } from './address.js'
 * isValidAddress('0x52908400098527886E0F7030069857D2E4169EE7') // true (checksummed)
 * isValidAddress('0x52908400098527886e0F7030069857D2E4169EE7') // false (bad checksum)
 */
export function isValidAddress(value: unknown): value is Address {
  if (!isAddressInAnyCase(value)) return false
  const hex = value.slice(2)
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  return getAddress(value) === value
}

/**
 * Checks an address and returns it in lower case, the form the services store.
 *
 * @throws {InvalidAddressError} when the address is malformed or its checksum is wrong.
 * @example
 * import { normalizeAddress } from './address.js'
 * normalizeAddress('0x52908400098527886E0F7030069857D2E4169EE7') // '0x52908400098527886e0f7030069857d2e4169ee7'
 */
export function normalizeAddress(value: unknown, name = 'address'): Address {
  if (!isValidAddress(value)) {
    const reason =
      typeof value !== 'string'
        ? `The ${name} must be a string, got ${value === null ? 'null' : typeof value}.`
        : !isAddressInAnyCase(value)
          ? `The ${name} must be 0x followed by 40 hex characters.`
          : `The ${name} has mixed case that is not a valid EIP-55 checksum.`
    throw new InvalidAddressError({ address: value, reason })
  }
  return value.toLowerCase() as Address
}

/**
 * Checks an address and returns its EIP-55 checksummed form (the form Snapshot keys results by).
 *
 * @throws {InvalidAddressError} when the address is malformed or its checksum is wrong.
 * @example
 * import { checksumAddress } from './address.js'
 * checksumAddress('0x52908400098527886e0f7030069857d2e4169ee7') // '0x52908400098527886E0F7030069857D2E4169EE7'
 */
export function checksumAddress(value: unknown, name = 'address'): Address {
  return getAddress(normalizeAddress(value, name))
}
