/**
 * The shape every action shares, checked by the compiler (`npm run typecheck` compiles this file;
 * at run time `expectTypeOf` does nothing): `action(client, parameters)`, and beside it its
 * `XParameters`, `XReturnType` and `XErrorType`, the last a union of error types that `error.name`
 * narrows. A change to an action's signature or to what it declares it throws fails the typecheck.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type { Client } from 'viem'
import {
  findBlockAtTime,
  getScore,
  listAttestations,
  waitForScore,
  readSbts,
  resolveSnapshot,
  runStrategy,
  validateWithStrategy,
  verifyCredentials,
  type ChainClient,
  type FindBlockAtTimeErrorType,
  type FindBlockAtTimeParameters,
  type FindBlockAtTimeReturnType,
  type GetScoreErrorType,
  type GetScoreParameters,
  type GetScoreReturnType,
  type ListAttestationsErrorType,
  type ListAttestationsParameters,
  type ListAttestationsReturnType,
  type AttestationIndexContext,
  type PassportClient,
  type PassportContext,
  type RegistryContext,
  type WaitForScoreErrorType,
  type WaitForScoreParameters,
  type WaitForScoreReturnType,
  type ReadSbtsErrorType,
  type ReadSbtsParameters,
  type ReadSbtsReturnType,
  type ResolveSnapshotErrorType,
  type ResolveSnapshotParameters,
  type ResolveSnapshotReturnType,
  type RunStrategyErrorType,
  type RunStrategyParameters,
  type RunStrategyReturnType,
  type StrategyProvider,
  type ValidateWithStrategyErrorType,
  type ValidateWithStrategyParameters,
  type ValidateWithStrategyReturnType,
  type VerifyCredentialsErrorType,
  type VerifyCredentialsParameters,
  type VerifyCredentialsReturnType,
} from '../../src/index.js'

/** The HTTP errors every request may end in. */
type RequestErrorName =
  | 'HttpRequestError'
  | 'InvalidRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'RateLimitError'
  | 'TimeoutError'
  | 'NetworkError'
  | 'RedirectRefusedError'
  | 'ResponseTooLargeError'
  | 'ResponseParseError'
  | 'ResponseValidationError'

describe('HTTP actions take the client first', () => {
  it('getScore(client, parameters), and bound on the client', () => {
    expectTypeOf(getScore).parameters.toEqualTypeOf<[PassportContext, GetScoreParameters]>()
    expectTypeOf(getScore).returns.resolves.toEqualTypeOf<GetScoreReturnType>()
    expectTypeOf<PassportClient['getScore']>().parameters.toEqualTypeOf<[GetScoreParameters]>()
    expectTypeOf<GetScoreErrorType['name']>().toEqualTypeOf<'InvalidAddressError' | 'InvalidParameterError' | RequestErrorName>()
  })

  it('waitForScore adds the scoring outcomes to what each read throws', () => {
    expectTypeOf(waitForScore).parameters.toEqualTypeOf<[RegistryContext, WaitForScoreParameters]>()
    expectTypeOf(waitForScore).returns.resolves.toEqualTypeOf<WaitForScoreReturnType>()
    expectTypeOf<WaitForScoreErrorType['name']>().toEqualTypeOf<'ScoringError' | 'ScoreTimeoutError' | 'InvalidAddressError' | 'InvalidParameterError' | RequestErrorName>()
  })

  it('listAttestations adds the paging guard', () => {
    expectTypeOf(listAttestations).parameters.toEqualTypeOf<[AttestationIndexContext, ListAttestationsParameters]>()
    expectTypeOf(listAttestations).returns.resolves.toEqualTypeOf<ListAttestationsReturnType>()
    expectTypeOf<ListAttestationsErrorType['name']>().toEqualTypeOf<'InvalidAddressError' | 'InvalidParameterError' | 'PaginationLimitError' | RequestErrorName>()
  })
})

describe('chain readers take the client first', () => {
  it('verifyCredentials(client, parameters)', () => {
    expectTypeOf(verifyCredentials<'gov-id'>).parameters.toEqualTypeOf<[ChainClient, VerifyCredentialsParameters<'gov-id'>]>()
    expectTypeOf(verifyCredentials<'gov-id'>).returns.resolves.toEqualTypeOf<VerifyCredentialsReturnType<'gov-id'>>()
    expectTypeOf<VerifyCredentialsParameters>().not.toHaveProperty('client')
    expectTypeOf<VerifyCredentialsErrorType['name']>().toEqualTypeOf<
      'InvalidAddressError' | 'InvalidParameterError' | 'UnsupportedNetworkError' | 'BlockNotAvailableError' | 'ChainReadError' | 'PaginationLimitError' | RequestErrorName
    >()
  })

  it('findBlockAtTime(client, parameters)', () => {
    expectTypeOf(findBlockAtTime).parameters.toEqualTypeOf<[ChainClient, FindBlockAtTimeParameters]>()
    expectTypeOf(findBlockAtTime).returns.resolves.toEqualTypeOf<FindBlockAtTimeReturnType>()
    expectTypeOf<FindBlockAtTimeErrorType['name']>().toEqualTypeOf<'InvalidParameterError' | 'BlockNotAvailableError' | 'ChainReadError'>()
  })

  it('readSbts(client, parameters)', () => {
    expectTypeOf(readSbts).parameters.toEqualTypeOf<[Client, ReadSbtsParameters]>()
    expectTypeOf(readSbts).returns.resolves.toEqualTypeOf<ReadSbtsReturnType>()
    expectTypeOf<ReadSbtsErrorType['name']>().toEqualTypeOf<'InvalidParameterError' | 'BlockNotAvailableError' | 'ChainReadError'>()
  })

  it('resolveSnapshot(provider, parameters)', () => {
    expectTypeOf(resolveSnapshot).parameters.toEqualTypeOf<[StrategyProvider, ResolveSnapshotParameters]>()
    expectTypeOf(resolveSnapshot).returns.resolves.toEqualTypeOf<ResolveSnapshotReturnType>()
    expectTypeOf<ResolveSnapshotErrorType['name']>().toEqualTypeOf<'InvalidParameterError' | 'BlockNotAvailableError' | 'ChainReadError'>()
  })
})

describe('strategy runners take the definition first', () => {
  it('runStrategy and validateWithStrategy', () => {
    expectTypeOf(runStrategy).parameter(1).toEqualTypeOf<RunStrategyParameters>()
    expectTypeOf(runStrategy<unknown, string, unknown>).returns.resolves.toEqualTypeOf<RunStrategyReturnType<string>>()
    expectTypeOf(validateWithStrategy).parameter(1).toEqualTypeOf<ValidateWithStrategyParameters>()
    expectTypeOf(validateWithStrategy).returns.resolves.toEqualTypeOf<ValidateWithStrategyReturnType>()
    expectTypeOf<ValidateWithStrategyErrorType>().toEqualTypeOf<RunStrategyErrorType>()
    expectTypeOf<RunStrategyErrorType['name']>().toEqualTypeOf<
      | 'StrategyOptionsError'
      | 'InvalidAddressError'
      | 'InvalidParameterError'
      | 'BlockNotAvailableError'
      | 'ChainReadError'
      | 'StrategySourceError'
      | 'PassportHistoryDeniedError'
      | 'StrategyDeadlineError'
      | 'RateBudgetError'
    >()
  })
})

describe('an ErrorType narrows by name', () => {
  it('to the class, with its own fields', () => {
    const handle = (error: VerifyCredentialsErrorType) => {
      if (error.name === 'ChainReadError') expectTypeOf(error.addresses).toEqualTypeOf<readonly string[]>()
      else if (error.name === 'RateLimitError') expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>()
      else if (error.name === 'ResponseValidationError') expectTypeOf(error).toHaveProperty('issues')
      // Every member is still a BaseError: code, shortMessage, docsUrl.
      expectTypeOf(error.code).toEqualTypeOf<string>()
    }
    expectTypeOf(handle).toBeFunction()
  })
})
