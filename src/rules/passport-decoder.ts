/**
 * How Passport's decoder is read (the answers are judged by ./passport-onchain.ts): on which chain
 * for a space, through which ABI, and how many voters one call asks.
 */
import { passportDecoders } from './passport-onchain.js';

/** Voters a decoder read asks in one call (snapshot.js pages its multicall by 500 too). */
export const passportDecoderVotersPerCall = 500;

/**
 * The chain whose decoder a space's voters are read on: the space's own when it has one, else
 * Optimism's (at its block at the snapshot's time).
 */
export function passportDecoderChain(network: string): string {
  return passportDecoders[network] ? network : '10';
}

/**
 * The decoder's ABI as the strategies use it: `getScore(address)` (0xd47875d0) and its two
 * errors, `AttestationNotFound()` (0x120a2e77) and `AttestationExpired(uint64)` (0x06c09405).
 */
export const passportDecoderAbi: readonly string[] = [
  'function getScore(address user) view returns (uint256)',
  'error AttestationNotFound()',
  'error AttestationExpired(uint64 expirationTime)'
];
