/** What the admin routes share: field schemas, the optional `?address=` reader and the clock in seconds. */
import type { Context } from 'hono'
import type { Address } from 'viem'
import { z } from 'zod'
import { addressSchema } from '../../../schemas/common.js'
import type { ServerContext } from '../../context.js'
import { requireAddress } from '../../request.js'

/** 0x-prefixed hex of any length. */
export const hexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/, 'Expected 0x-prefixed hex')

/** An address (EIP-55 checked), stored in lower case. */
export const lowerAddress = addressSchema.transform((value) => value.toLowerCase() as Address)

/** Unix seconds, a whole number of at least 0. */
export const unixSeconds = z.number().int().nonnegative()

/**
 * The `?address=` of a request, lowercased, or undefined without one.
 *
 * @throws {HttpError} 400 for a malformed address.
 */
export function queryAddress(c: Context): Address | undefined {
  const value = c.req.query('address')
  if (value === undefined) return undefined
  return requireAddress(value)
}

/** The server's clock in whole Unix seconds. */
export function nowSeconds(ctx: ServerContext): number {
  return Math.floor(ctx.now() / 1000)
}
