/**
 * The world's stamp issuers: keys derived from the seed. A module of its own so that draft.ts
 * (which creates the issuers) and services.ts (which reads the draft) do not import each other.
 */
import { keccak256, toBytes } from 'viem'
import { stampIssuerDid } from '../../verify/stamp-credential.js'
import type { StampIssuer } from '../types.js'

/** A stamp issuer whose key is derived from the seed and its name. */
export function stampIssuer(seed: string, name: string, trusted: boolean): StampIssuer {
  const privateKey = keccak256(toBytes(`${seed}:stamp-issuer:${name}`))
  return { did: stampIssuerDid(privateKey), trusted, privateKey }
}
