/**
 * A client of the Snapshot hub's GraphQL API, for what an audit needs: one proposal and every one
 * of its votes. Votes are read in pages of 1,000 ordered by creation time, with the creation time
 * as the cursor (the hub caps `skip`), so a proposal of any size is read whole, each vote once.
 */
import type { Address } from 'viem'
import { z } from 'zod'
import { ProposalNotFoundError, SnapshotHubError } from '../errors/audit.js'
import { InvalidParameterError, PaginationLimitError } from '../errors/input.js'
import { rowFingerprint } from '../rules/rows.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import { addressSchema } from '../schemas/common.js'
import { checksumAddress } from '../utils/address.js'

/** The public hub's GraphQL endpoint. */
export const defaultSnapshotHubUrl = 'https://hub.snapshot.org/graphql'

/** Votes per page (the hub's own maximum of `first`). */
export const snapshotVotesPageSize = 1000

/** The hub refuses a larger `skip`. */
const hubMaxSkip = 5000

/**
 * A vote's choice as Snapshot records it: a 1-based choice index (single-choice, basic), a list of
 * indices (approval, ranked-choice: most preferred first), or weights by 1-based index as a string
 * key (weighted, quadratic).
 */
export type SnapshotVoteChoice = number | readonly number[] | Readonly<Record<string, number>>

/** One vote, as the hub lists it. */
export type SnapshotVote = {
  /** The voter, EIP-55. */
  voter: Address
  choice: SnapshotVoteChoice
  /** Voting power as the proposal's strategies counted it. */
  votingPower: number
  /** Unix seconds, when known. */
  created?: number | undefined
  /** The hub's vote id (or IPFS hash), when known. */
  id?: string | undefined
  reason?: string | undefined
}

/** A proposal, as the audit needs it. */
export type SnapshotProposal = {
  id: string
  title: string
  /** Choice labels; choice `n` of a vote is `choices[n - 1]`. */
  choices: string[]
  /** The voting system: single-choice, basic, approval, weighted, quadratic, ranked-choice... */
  type: string
  state: string
  /** The snapshot block on `network`. */
  snapshot: bigint
  /** Chain id of the space's network, as a string (Snapshot's form). */
  network: string
  space: { id: string; name?: string | undefined }
  start: number
  end: number
  /** Number of votes, as the hub counts them. */
  votes: number
  strategies: { name: string; network?: string | undefined; params: unknown }[]
}

/** What {@link createSnapshotHubClient} accepts. */
export type CreateSnapshotHubClientParameters = TransportOptions & {
  /** The hub's GraphQL URL. Default `https://hub.snapshot.org/graphql`. */
  url?: string | undefined
}

/** A Snapshot hub client. */
export type SnapshotHubClient = {
  readonly url: string
  /** One proposal: see {@link getProposal}. */
  getProposal(parameters: { id: string; signal?: AbortSignal }): Promise<SnapshotProposal>
  /** Every vote of a proposal, page by page: see {@link iterateProposalVotes}. */
  iterateVotes(parameters: IterateProposalVotesParameters): AsyncGenerator<SnapshotVote[], void, undefined>
  /** Every vote of a proposal. */
  getVotes(parameters: IterateProposalVotesParameters): Promise<SnapshotVote[]>
}

type HubContext = { transport: Transport; path: string; url: string }

/**
 * Creates a client of a Snapshot hub's GraphQL API.
 *
 * @throws {InvalidParameterError} when `url` is not an http(s) URL.
 * @example
 * import { createSnapshotHubClient } from 'personhood/audit'
 * const hub = createSnapshotHubClient()
 * const proposal = await hub.getProposal({ id: '0x…' })
 * const votes = await hub.getVotes({ proposal: proposal.id })
 */
export function createSnapshotHubClient(config: CreateSnapshotHubClientParameters = {}): SnapshotHubClient {
  const { url = defaultSnapshotHubUrl, ...transportOptions } = config
  let parsed: URL
  try {
    parsed = new URL(url)
    if (!/^https?:$/.test(parsed.protocol)) throw new Error('not http')
  } catch {
    throw new InvalidParameterError({ parameter: 'hub', reason: `Expected an http(s) URL such as ${defaultSnapshotHubUrl}, got "${String(url).slice(0, 100)}".` })
  }
  // `https://hub.snapshot.org` and `https://hub.snapshot.org/graphql` both name the hub.
  const path = parsed.pathname.endsWith('/graphql') ? parsed.pathname : `${parsed.pathname.replace(/\/+$/, '')}/graphql`
  const context: HubContext = { transport: createTransport({ ...transportOptions, baseUrl: parsed.origin }), path, url: parsed.origin + path }
  return {
    url: context.url,
    getProposal: (parameters) => getProposal(context, parameters),
    iterateVotes: (parameters) => iterateProposalVotes(context, parameters),
    getVotes: async (parameters) => {
      const all: SnapshotVote[] = []
      for await (const page of iterateProposalVotes(context, parameters)) all.push(...page)
      return all
    },
  }
}

const proposalSchema = z.object({
  id: z.string(),
  title: z.string(),
  choices: z.array(z.string()),
  type: z.string(),
  state: z.string(),
  snapshot: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform((value) => BigInt(value)),
  network: z.union([z.string(), z.number()]).transform(String),
  space: z.object({ id: z.string(), name: z.string().nullish().transform((value) => value ?? undefined) }),
  start: z.number(),
  end: z.number(),
  votes: z.number().nullish().transform((value) => value ?? 0),
  strategies: z
    .array(z.object({ name: z.string(), network: z.string().nullish().transform((value) => value ?? undefined), params: z.unknown() }))
    .nullish()
    .transform((value) => value ?? []),
})

const choiceSchema: z.ZodType<SnapshotVoteChoice> = z.union([
  z.number().int().min(1),
  z.array(z.number().int().min(1)).min(1),
  z.record(z.string().regex(/^[1-9]\d*$/), z.number().nonnegative()),
])

const voteSchema = z.object({
  id: z.string(),
  voter: addressSchema,
  choice: choiceSchema,
  vp: z.number().nonnegative(),
  created: z.number().int().nonnegative(),
  reason: z.string().nullish(),
})

const graphQlAnswer = <T extends z.ZodType>(data: T) =>
  z.object({ data: data.nullish(), errors: z.array(z.object({ message: z.string() }).passthrough()).nullish() })

async function query<T extends z.ZodType>(context: HubContext, body: { query: string; variables: Record<string, unknown> }, data: T, signal?: AbortSignal) {
  const { data: answer } = await context.transport.request({
    method: 'POST',
    path: context.path,
    body,
    schema: graphQlAnswer(data),
    // A GraphQL query changes nothing: it is safe to repeat.
    idempotent: true,
    ...(signal ? { signal } : {}),
  })
  if (answer.errors?.length) {
    throw new SnapshotHubError({ url: context.url, reason: answer.errors.map((error) => error.message).join('; ').slice(0, 500) })
  }
  if (!answer.data) throw new SnapshotHubError({ url: context.url, reason: 'the answer has neither data nor errors.' })
  return answer.data as z.output<T>
}

const proposalQuery = `query Proposal($id: String!) {
  proposal(id: $id) { id title choices type state snapshot network start end votes space { id name } strategies { name network params } }
}`

/**
 * Reads one proposal from the hub.
 *
 * @throws {ProposalNotFoundError} when the hub knows no such proposal.
 * @throws {SnapshotHubError} when the hub answers with GraphQL errors.
 */
export async function getProposal(context: HubContext, parameters: { id: string; signal?: AbortSignal }): Promise<SnapshotProposal> {
  const id = parameters.id.trim()
  if (!/^(0x[0-9a-fA-F]{64}|[A-Za-z0-9]{46,64})$/.test(id)) {
    throw new InvalidParameterError({ parameter: 'proposal', reason: `A proposal id is 0x followed by 64 hex characters (or an IPFS hash); got "${id.slice(0, 100)}".` })
  }
  const data = await query(context, { query: proposalQuery, variables: { id } }, z.object({ proposal: proposalSchema.nullable() }), parameters.signal)
  if (!data.proposal) throw new ProposalNotFoundError({ proposal: id, url: context.url })
  return data.proposal
}

/** Parameters of {@link iterateProposalVotes}. */
export type IterateProposalVotesParameters = {
  /** The proposal id. */
  proposal: string
  /** Most votes to read before a {@link PaginationLimitError}. Default 1,000,000. */
  maxVotes?: number | undefined
  /** Most pages to read before a {@link PaginationLimitError}. Default 2,000. */
  maxPages?: number | undefined
  signal?: AbortSignal | undefined
}

const votesQuery = `query Votes($proposal: String!, $first: Int!, $skip: Int!, $createdGte: Int!) {
  votes(first: $first, skip: $skip, where: { proposal: $proposal, created_gte: $createdGte }, orderBy: "created", orderDirection: asc) { id voter choice vp created reason }
}`

/**
 * Every vote of a proposal, a page at a time, oldest first, each vote once.
 *
 * The cursor is the last vote's creation time (`created_gte`), with `skip` over the votes of that
 * same second already read: the hub caps `skip`, so offset paging alone stops at a few thousand.
 *
 * @throws {PaginationLimitError} past `maxVotes`, or when more votes share one second than the hub can skip.
 * @throws {SnapshotHubError} when the hub answers with GraphQL errors.
 */
export async function* iterateProposalVotes(context: HubContext, parameters: IterateProposalVotesParameters): AsyncGenerator<SnapshotVote[], void, undefined> {
  const maxVotes = parameters.maxVotes ?? 1_000_000
  const maxPages = parameters.maxPages ?? 2_000
  // Each vote read, by id: the cursor reads the votes of its second again, and a vote read again
  // must say the same (the one rule for duplicated rows); a vote id that changes is an error.
  const seen = new Map<string, string>()
  let createdGte = 0
  let skip = 0
  for (let pages = 0; ; ) {
    if (pages >= maxPages) throw new PaginationLimitError({ kind: 'pages', limit: maxPages, url: context.url })
    const variables = { proposal: parameters.proposal, first: snapshotVotesPageSize, skip, createdGte }
    const { votes } = await query(context, { query: votesQuery, variables }, z.object({ votes: z.array(voteSchema).nullable() }), parameters.signal)
    pages++
    const page = votes ?? []
    // The hub was asked for votes created at or after the cursor, oldest first: anything else is a
    // hub that cannot be paged (it would loop, or skip votes).
    const behind = page.findIndex((vote, index) => vote.created < createdGte || (index > 0 && vote.created < page[index - 1]!.created))
    if (behind !== -1) {
      throw new SnapshotHubError({
        url: context.url,
        reason: `page ${pages} of the votes is not in order from the cursor (created ${page[behind]!.created} after asking for created >= ${createdGte}, oldest first): the hub cannot be paged reliably.`,
      })
    }
    const fresh: typeof page = []
    for (const vote of page) {
      const fingerprint = rowFingerprint({ ...vote, reason: vote.reason ?? null })
      const earlier = seen.get(vote.id)
      if (earlier === undefined) {
        seen.set(vote.id, fingerprint)
        fresh.push(vote)
      } else if (earlier !== fingerprint) {
        throw new SnapshotHubError({
          url: context.url,
          reason: `vote ${vote.id} of ${checksumAddress(vote.voter.toLowerCase())} was read twice with different contents (page ${pages}): which one the hub holds cannot be told.`,
        })
      }
    }
    if (page.length >= snapshotVotesPageSize && fresh.length === 0) {
      throw new SnapshotHubError({ url: context.url, reason: `page ${pages} of the votes holds only votes already read: the cursor does not advance.` })
    }
    if (seen.size > maxVotes) throw new PaginationLimitError({ kind: 'items', limit: maxVotes, url: context.url })
    if (fresh.length) {
      yield fresh.map((vote) => ({
        voter: checksumAddress(vote.voter),
        choice: vote.choice,
        votingPower: vote.vp,
        created: vote.created,
        id: vote.id,
        reason: vote.reason || undefined,
      }))
    }
    if (page.length < snapshotVotesPageSize) return
    const last = page[page.length - 1]!.created
    const atLast = page.filter((vote) => vote.created === last).length
    // Same second as the cursor all page long: skip further into it; otherwise move the cursor.
    skip = last === createdGte ? skip + page.length : atLast
    createdGte = last
    if (skip > hubMaxSkip) {
      throw new PaginationLimitError({ kind: 'items', limit: hubMaxSkip, url: context.url, details: `More than ${hubMaxSkip} votes were created in the second ${last}; the hub cannot page past them.` })
    }
  }
}
