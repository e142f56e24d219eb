/**
 * `personhood/devchain`: a local chain for trying the on-chain verifier offline. An in-process EVM
 * (EDR, loaded only when a chain starts) seeded from the same world as the reference server: Human
 * ID SBTs, the permanent stores, the clean-hands attestations of the attestation index (same ids)
 * and Multicall3, at the built-in addresses, with blocks on the world's clock. See docs/devchain.md.
 *
 * @example
 * import { startLocalChain } from 'personhood/devchain'
 * const chain = await startLocalChain({ world })
 * console.log(chain.rpcUrl)
 */
export { localChainArtifacts } from './artifacts.js'
export { startLocalChain, type LocalChain, type StartLocalChainParameters } from './local-chain.js'
export { planLocalChain, type ChainWrite, type LocalChainPlan, type LocalChainWorld, type PlannedBlock } from './plan.js'
