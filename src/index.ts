/**
 * personhood: one-person-one-vote for DAOs. The library: typed clients for the stamp-scoring and
 * individual-verification services, on-chain readers, the rules that judge and combine their
 * answers, and the one verdict shape they share.
 *
 * This root loads no server, no demo world and no Node-only module (node:fs, node:crypto, hono):
 * a Snapshot strategy or a browser bundle pays only for the library. The reference server is
 * `personhood/server`, the demo world `personhood/world`, the command line `personhood/cli`.
 */
export * from './errors/index.js'
export * from './utils/index.js'
export * from './schemas/index.js'
export * from './http/index.js'
export * from './clients/index.js'
export * from './chain/index.js'
export * from './verify/index.js'
export * from './strategy/index.js'
export { version } from './version.js'
