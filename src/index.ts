/**
 * personhood: one-person-one-vote for DAOs. Typed clients for the stamp-scoring and
 * individual-verification services, a reference server, an on-chain verifier and the rules that
 * combine them.
 */
export * from './errors/index.js'
export * from './utils/index.js'
export * from './schemas/index.js'
export * from './http/index.js'
export * from './clients/index.js'
export * from './chain/index.js'
export * from './verify/index.js'
export * from './server/index.js'
export * from './world/index.js'
export { version } from './version.js'
