/**
 * The shapes of a strategy: its definition (name, options, `prepare`, `score`, the `audit` hook)
 * and what its steps receive. `define.ts` runs them; `call.ts` parses a call for them.
 */
import type { Address } from 'viem'
import type { z } from 'zod'
import type { HumanGateMode } from '../verify/human-gate.js'
import type { StrategyRuntime } from './context.js'
import type { RequestedSnapshot, ResolvedSnapshot, StrategyProvider } from './snapshot.js'

/** One address's answer: its score (a plain number) and what it rests on. */
export type AddressScore<detail = unknown> = { score: number; detail: detail }

/** What a strategy's `prepare` step receives: the parsed options and the call's runtime. */
export type StrategyPrepareParameters<options> = { strategy: string; options: options; runtime: StrategyRuntime }

/**
 * What a strategy's `score` step receives; `scoreRequested` receives the same with the snapshot as
 * asked ({@link RequestedSnapshot}) instead.
 */
export type StrategyScoreParameters<prepared, snapshot = ResolvedSnapshot> = {
  /** The strategy's name. */
  strategy: string
  space: string
  network: string
  provider: StrategyProvider
  /** Distinct, EIP-55 checksummed, in the caller's order; never empty. */
  addresses: readonly Address[]
  /** The options as `prepare` returned them (the parsed options when there is no `prepare`). */
  options: prepared
  /** The snapshot's block and its time. */
  snapshot: snapshot
  runtime: StrategyRuntime
}

/**
 * A strategy: its name (the folder's), how its options read, and how it scores. `prepare` runs
 * after the options are read and before any request: it resolves what the options leave to the
 * context (a scorer id from the environment, for example) and throws a `StrategyOptionsError`
 * for anything missing.
 */
export type StrategyDefinition<options = unknown, detail = unknown, prepared = options> = {
  /** Kebab-case: the folder name under `strategies/` and the name in score-api. */
  readonly name: string
  /** A title for Snapshot's UI (`schema.json`'s `definitions.Strategy.title`). */
  readonly title: string
  /** A strict zod object: unknown options are refused. */
  readonly optionsSchema: z.ZodType<options>
  prepare?(parameters: StrategyPrepareParameters<options>): prepared
  /** Scores every address of `parameters.addresses`: the map has one entry per address. */
  score(parameters: StrategyScoreParameters<prepared>): Promise<ReadonlyMap<Address, AddressScore<detail>>>
  /**
   * Optional: scores from the snapshot as asked, for a strategy whose own reads return the block
   * it read at (human-id's reader on the hub chain returns its number and time), so that the frame
   * need not read the snapshot's header first. `snapshot.resolve()` reads it when the strategy
   * needs it; the strategy answers the block it scored at with the scores. {@link runStrategy}
   * calls it instead of `score` when present; `score` stays for a caller that holds a resolved
   * snapshot.
   */
  scoreRequested?(parameters: StrategyScoreParameters<prepared, RequestedSnapshot>): Promise<{ snapshot: ResolvedSnapshot; results: ReadonlyMap<Address, AddressScore<detail>> }>
  /**
   * Optional: how an audit judges this strategy's voters when running the strategy itself is not
   * the judgment (`human-gated`: a vote export records each voter's power, so its inner strategies
   * are not called; its human test judges the voters and its mode is applied to the recorded power).
   * Without it, the audit runs the strategy with the space's options.
   */
  audit?(options: options): StrategyAuditPlan
}

/** What a strategy's `audit` hook answers: the strategy that judges each voter, its options, and a gate applied to the recorded power afterwards. */
export type StrategyAuditPlan = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any strategy of the package
  judge: StrategyDefinition<any, unknown, any>
  /** The judge's options, as a space would configure them (read by the judge's schema). */
  options: unknown
  /** The gate on the recorded power: the audit shows the outcome under each mode beside the recorded one. */
  gate?: StrategyAuditGate | undefined
}

/** A gate an audit applies to the recorded power (see {@link StrategyAuditPlan}). */
export type StrategyAuditGate = {
  mode: HumanGateMode
  cap: number | undefined
  /** The inner strategies named, for the report (never called). */
  inner: readonly { name: string; network?: string | undefined }[]
}

