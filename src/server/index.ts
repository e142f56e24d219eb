/**
 * The reference server: `createServer(options)` returns a hono app (a `fetch(Request) => Response`
 * handler) serving interfaces A-E and the admin API from an in-memory state. See docs/server.md.
 *
 * @example
 * import { createServer } from 'personhood/server'
 * import { generateWorld } from 'personhood/world'
 * const server = createServer({ world: generateWorld({ now: new Date() }) })
 * const response = await server.fetch(new Request('http://localhost/v2/stamps/metadata', { headers: { 'X-API-KEY': key } }))
 */
export { createServer, type CreateServerOptions, type PersonhoodServer } from './app.js'
export { defaultRateLimits, type BlockTime, type RateLimitConfig, type RateLimitTable, type ServerConfig, type ServerContext } from './context.js'
export { createFilePersistence, loadStateFile, type FilePersistence, type Persistence } from './persistence.js'
export { buildStampCredential, type CredentialInput, type StampCredentialJson } from './state/credentials.js'
export { createEmptyState, Store as ServerStore, type ScoreOptions, type StampWrite } from './state/store.js'
export type { SubmissionPage, SubmissionPageQuery } from './state/listing.js'
export type { ServerState, StampRecord } from './state/types.js'
// Stamp proofs sign and verify with node:crypto (Ed25519), so they live beside the server, not in the browser-safe root.
export { signStampCredential, stampIssuerDid, verifyStampCredential, type StampCredentialCheck, type StampProofReason } from '../verify/stamp-credential.js'
export { stateFromWorld, type StateFromWorldOptions } from './state/world.js'
export { startServe, type RunningServe, type ServeOptions, type ServeUrls } from './start.js'
