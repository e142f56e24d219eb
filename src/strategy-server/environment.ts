/**
 * The environment variables `personhood strategy-server` reads, and what each sets: the list its
 * `--help` prints and docs/strategy-server.md tabulates (a test checks that each one changes the
 * configuration {@link readStrategyServerConfig} reads). Dependency-free, so `--help` loads nothing else.
 */

/** Each variable the strategy server reads, with its meaning. `<chainId>` stands for a chain id. */
export const strategyServerVariables: readonly (readonly [name: string, meaning: string])[] = [
  ['PERSONHOOD_RPC_URL_<chainId>', 'JSON-RPC of a network served, one per chain id (e.g. PERSONHOOD_RPC_URL_10)'],
  ['SNAPSHOT_API_STRATEGY_SALT', "score-api's salt: only calls carrying sha256(url + salt) are answered"],
  ['PERSONHOOD_SCORE_API_URL', "score-api, for human-gated's inner strategies that are not this package's"],
  ['PERSONHOOD_SCORE_API_KEY', 'score-api API key (sent as X-API-KEY to that URL only)'],
  ['PASSPORT_API_KEY', 'Passport API key'],
  ['PASSPORT_API_TIER', 'the key tier, 1-4 (how fast requests may go; default 1)'],
  ['PASSPORT_SCORER_ID', 'Passport scorer when the options name none'],
  ['PASSPORT_API_URL', 'Passport host'],
  ['PASSPORT_REGISTRY_URL', 'Passport v1 registry host'],
  ['HUMAN_ID_RPC_URL', 'JSON-RPC of Optimism, where Human ID lives (for spaces on other networks)'],
  ['HUMAN_ID_API_URL', 'Human ID API'],
  ['ATTESTATION_INDEX_URL', 'attestation index (clean hands)'],
  ['PERSONHOOD_STRATEGY_STORE', 'the answer store file, or none (--store wins; default personhood-answers.log)'],
  ['PORT', 'port to listen on (--port wins; default 8788)'],
  ['HOST', 'host to bind (--host wins; default 127.0.0.1)'],
  ['PERSONHOOD_PUBLIC_URL', 'the origin spaces call, when a proxy changes it (--public-url wins)'],
  ['STRATEGY_DEADLINE_MS', 'time a strategy run may take, ms (default 60000)'],
]
