/**
 * The demo world: a deterministic, JSON-serializable description of the state a reference server
 * and a local chain load (stamps, scorers, API keys, Human ID verifications, clean-hands
 * attestations, model scores, stakes, demo accounts).
 *
 * @example
 * import { generateWorld, summarizeWorld } from 'personhood/world'
 * const world = generateWorld({ now: new Date('2025-06-01T00:00:00Z') })
 * const summary = summarizeWorld(world)
 */
export { demoCustomActionId, generateWorld } from './generate/index.js'
export type { GenerateWorldParameters, GenerateWorldReturnType } from './generate/index.js'
export { summarizeWorld } from './summarize.js'
export type { WorldSummary } from './summarize.js'
// Types named like the spec's resources carry a `World` prefix: the plain records of the world are
// not the services' answers (those types come from the schemas).
export type {
  ApiKey as WorldApiKey,
  AttestationKind,
  AttestationRow as WorldAttestation,
  CleanHandsSbt,
  DemoAccount,
  DemoStory,
  ModelScore as WorldModelScore,
  OnchainPassportPush,
  RoundStake as WorldRoundStake,
  ScoreEvent,
  Scorer as WorldScorer,
  Stake as WorldStake,
  Stamp as WorldStamp,
  StampIssuer,
  StampMetadata as WorldStampMetadata,
  StampProvider,
  SybilCluster,
  TosAcceptance,
  Verification,
  VerificationKind,
  Wallet,
  World,
  WorldChain,
} from './types.js'
