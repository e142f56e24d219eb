import { describe, expect, test } from 'vitest'
import { formatDecimal } from './common.js'
import {
  parseCreatedAt,
  stampCredentialResponseSchema,
  stampCredentialSchema,
  stampListPageResponseSchema,
  stampListPageSchema,
  stampListQuerySchema,
  stampMetadataListSchema,
  v2ScoreHistoryQuerySchema,
  v2ScoreHistoryResponseSchema,
  v2ScoreHistorySchema,
  v2ScoreResponseSchema,
  v2ScoreSchema,
  v2StampScoreResponseSchema,
  type V2Score,
} from './passport.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'

const currentScore = {
  address,
  score: '22.51600',
  passing_score: true,
  last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
  expiration_timestamp: '2025-01-23T19:16:14.023000+00:00',
  threshold: '20.00000',
  error: null,
  stamps: {
    Google: { score: '0.52500', dedup: false, expiration_date: '2025-01-23T19:16:14.023Z' },
    Discord: { score: '0.00000', dedup: true, expiration_date: '2025-02-01T00:00:00.000Z' },
  },
} satisfies V2Score

describe('v2 score record (A1)', () => {
  test('the current shape parses unchanged, by the canonical and the response schema', () => {
    expect(v2ScoreSchema.parse(currentScore)).toEqual(currentScore)
    expect(v2ScoreResponseSchema.parse(currentScore)).toEqual(currentScore)
  })

  test('the earlier revision (pass, stamp_scores, numeric threshold) normalizes to the current shape', () => {
    const earlier = {
      address,
      score: '22.516',
      pass: true,
      threshold: 20,
      last_score_timestamp: '2024-10-25T19:16:14.023Z',
      expiration_timestamp: '2025-01-23T19:16:14.023Z',
      error: null,
      stamp_scores: { Google: '0.525', Github: 10 },
    }
    expect(v2ScoreResponseSchema.parse(earlier)).toEqual({
      address,
      score: '22.516',
      passing_score: true,
      threshold: '20',
      last_score_timestamp: '2024-10-25T19:16:14.023Z',
      expiration_timestamp: '2025-01-23T19:16:14.023Z',
      error: null,
      stamps: {
        Google: { score: '0.525', dedup: false, expiration_date: null },
        Github: { score: '10', dedup: false, expiration_date: null },
      },
    })
  })

  test('prefers passing_score and stamps when both spellings are present', () => {
    const both = {
      ...currentScore,
      pass: false,
      stamp_scores: { Other: '1' },
    }
    const parsed = v2ScoreResponseSchema.parse(both)
    expect(parsed.passing_score).toBe(true)
    expect(Object.keys(parsed.stamps)).toEqual(['Google', 'Discord'])
  })

  test('the history shape (null timestamps, null stamp_scores, no error key) normalizes', () => {
    const history = {
      address,
      score: '309.5190000000000054014570595',
      passing_score: true,
      threshold: '100.00000',
      last_score_timestamp: null,
      expiration_timestamp: null,
      stamp_scores: null,
    }
    const { stamp_scores: _stampScores, ...rest } = history
    expect(v2ScoreResponseSchema.parse(history)).toStrictEqual({ ...rest, error: null, stamps: {} })
  })

  test('keeps the score as the exact decimal string; numbers become plain strings', () => {
    expect(v2ScoreResponseSchema.parse({ ...currentScore, score: '309.5190000000000054014570595' }).score).toBe(
      '309.5190000000000054014570595',
    )
    expect(v2ScoreResponseSchema.parse({ ...currentScore, score: 0.1, threshold: 20.5 })).toMatchObject({
      score: '0.1',
      threshold: '20.5',
    })
  })

  test('a scoring failure (error text, empty stamps) parses', () => {
    const failure = { ...currentScore, score: '0.00000', passing_score: false, error: 'Unable to score', stamps: {} }
    expect(v2ScoreResponseSchema.parse(failure)).toEqual(failure)
  })

  test('malformed bodies fail with the path of the problem', () => {
    const paths = (body: unknown) =>
      v2ScoreResponseSchema.safeParse(body).error?.issues.map((issue) => issue.path.join('.')) ?? []
    const { address: _address, ...noAddress } = currentScore
    expect(paths(noAddress)).toEqual(['address'])
    const { passing_score: _passing, ...noPassing } = currentScore
    expect(paths(noPassing)).toEqual(['passing_score'])
    const { stamps: _stamps, ...noStamps } = currentScore
    expect(paths(noStamps)).toEqual(['stamps'])
    const { threshold: _threshold, ...noThreshold } = currentScore
    expect(paths(noThreshold)).toEqual(['threshold'])
    expect(paths({ ...currentScore, score: true })).toEqual(['score'])
    expect(paths({ ...currentScore, score: 'lots' })).toEqual(['score'])
    expect(paths({ ...currentScore, passing_score: 'yes' })).toEqual(['passing_score'])
    expect(paths({ ...currentScore, stamps: { Google: { score: '1', dedup: 'no', expiration_date: null } } })).toEqual([
      'stamps.Google.dedup',
    ])
    expect(v2ScoreResponseSchema.safeParse(null).success).toBe(false)
  })

  test('the canonical schema demands 5-decimal strings, as formatDecimal writes them', () => {
    expect(v2ScoreSchema.safeParse({ ...currentScore, threshold: '20' }).success).toBe(false)
    expect(v2ScoreSchema.safeParse({ ...currentScore, threshold: 20 }).success).toBe(false)
    expect(v2ScoreSchema.safeParse({ ...currentScore, threshold: formatDecimal(20, 5) }).success).toBe(true)
    const { error: _error, ...noError } = currentScore
    expect(v2ScoreSchema.safeParse(noError).success).toBe(false)
  })

  test('stamp score entries keep source_wallet only when sent', () => {
    const entry = { score: '1.00000', dedup: false, expiration_date: null }
    expect(v2StampScoreResponseSchema.parse(entry)).toEqual(entry)
    expect('source_wallet' in v2StampScoreResponseSchema.parse(entry)).toBe(false)
    expect(v2StampScoreResponseSchema.parse({ ...entry, source_wallet: address })).toEqual({ ...entry, source_wallet: address })
  })
})

describe('v2 score history (A2)', () => {
  test('the spec shape { items } parses', () => {
    expect(v2ScoreHistoryResponseSchema.parse({ items: [currentScore] })).toEqual({ items: [currentScore] })
    expect(v2ScoreHistorySchema.parse({ items: [currentScore] })).toEqual({ items: [currentScore] })
  })

  test("the public service's single score object is wrapped into items", () => {
    expect(v2ScoreHistoryResponseSchema.parse(currentScore)).toEqual({ items: [currentScore] })
  })

  test('items of the earlier revision are normalized too', () => {
    const parsed = v2ScoreHistoryResponseSchema.parse({
      items: [{ address, score: '1', pass: false, threshold: '20', stamp_scores: {} }],
    })
    expect(parsed.items[0]?.passing_score).toBe(false)
    expect(parsed.items[0]?.stamps).toEqual({})
  })

  test('malformed bodies fail at the right path', () => {
    const { address: _address, ...noAddress } = currentScore
    expect(v2ScoreHistoryResponseSchema.safeParse(noAddress).error?.issues.map((i) => i.path)).toEqual([['address']])
    expect(v2ScoreHistoryResponseSchema.safeParse({ items: [noAddress] }).error?.issues.map((i) => i.path)).toEqual([
      ['items', 0, 'address'],
    ])
    expect(v2ScoreHistoryResponseSchema.safeParse({ items: 'none' }).success).toBe(false)
    expect(v2ScoreHistoryResponseSchema.safeParse(null).success).toBe(false)
    expect(v2ScoreHistoryResponseSchema.safeParse([currentScore]).success).toBe(false)
  })

  test('parseCreatedAt reads date-only as midnight UTC and date-times exactly', () => {
    expect(parseCreatedAt('2024-10-26').toISOString()).toBe('2024-10-26T00:00:00.000Z')
    expect(parseCreatedAt('2023-01-01T12:34:56.789Z').toISOString()).toBe('2023-01-01T12:34:56.789Z')
    expect(parseCreatedAt('2023-01-01T00:00:00+00:00').toISOString()).toBe('2023-01-01T00:00:00.000Z')
  })

  test('parseCreatedAt throws a plain Error on garbage', () => {
    for (const bad of ['invalid-date', '2023-02-30', '2023-1-1', '', '2023-01-01T12:00:00Zjunk']) {
      expect(() => parseCreatedAt(bad), bad).toThrow(Error)
    }
    expect(() => parseCreatedAt('invalid-date')).toThrowErrorMatchingInlineSnapshot(
      `[Error: Invalid created_at "invalid-date": expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS.sssZ).]`,
    )
  })

  test('the query schema requires created_at and parses it', () => {
    expect(v2ScoreHistoryQuerySchema.parse({ created_at: '2024-10-26' }).created_at.toISOString()).toBe(
      '2024-10-26T00:00:00.000Z',
    )
    expect(v2ScoreHistoryQuerySchema.safeParse({}).success).toBe(false)
    expect(v2ScoreHistoryQuerySchema.safeParse({ created_at: 'yesterday' }).error?.issues[0]?.path).toEqual(['created_at'])
  })
})

const eip712Credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/vc/status-list/2021/v1'],
  type: ['VerifiableCredential', 'EVMCredential'],
  issuer: 'did:ethr:0xd6f8d6ca86aa01e551a311d670a0d1bd8577e5fb',
  issuanceDate: '2024-10-25T19:16:14.023Z',
  expirationDate: '2025-01-23T19:16:14.023Z',
  credentialSubject: {
    id: `did:pkh:eip155:1:${address}`,
    hash: 'v0.0.0:8JZcQJy6uwNGPDZnvfGbEs6mf5OZVD1mUOdhKNrOHls=',
    provider: 'Google',
    '@context': { hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' },
  },
  proof: {
    '@context': 'https://w3id.org/security/suites/eip712sig-2021/v1',
    type: 'EthereumEip712Signature2021',
    proofPurpose: 'assertionMethod',
    proofValue: '0xabc123',
    verificationMethod: 'did:ethr:0xd6f8d6ca86aa01e551a311d670a0d1bd8577e5fb#controller',
    created: '2024-10-25T19:16:14.023Z',
    eip712Domain: { domain: { name: 'VerifiableCredential' }, primaryType: 'Document', types: {} },
  },
}

const jwsCredential = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  issuer: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  issuanceDate: '2024-10-25T19:16:14.023Z',
  expirationDate: '2025-01-23T19:16:14.023Z',
  credentialSubject: {
    id: `did:pkh:eip155:1:${address}`,
    hash: 'v0.0.0:8JZcQJy6uwNGPDZnvfGbEs6mf5OZVD1mUOdhKNrOHls=',
    provider: 'Google',
    '@context': [{ hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' }],
  },
  proof: {
    type: 'Ed25519Signature2018',
    jws: 'eyJhbGciOiJFZERTQSJ9..sig',
    created: '2024-10-25T19:16:14.023Z',
    proofPurpose: 'assertionMethod',
    verificationMethod: 'did:key:z6Mk#z6Mk',
  },
}

describe('stamp credentials and pages (A3, C5)', () => {
  test('the canonical credential schema accepts the spec shape', () => {
    expect(stampCredentialSchema.parse(jwsCredential)).toEqual(jwsCredential)
  })

  test('the canonical credential schema rejects a missing jws and a subject id that is not did:pkh', () => {
    const issues = stampCredentialSchema.safeParse(eip712Credential).error?.issues.map((i) => i.path.join('.'))
    expect(issues).toEqual(['proof.jws', 'credentialSubject.@context'])
    const badSubject = { ...jwsCredential, credentialSubject: { ...jwsCredential.credentialSubject, id: 'did:key:x' } }
    expect(stampCredentialSchema.safeParse(badSubject).error?.issues.map((i) => i.path.join('.'))).toEqual([
      'credentialSubject.id',
    ])
  })

  test('the response credential schema accepts EIP-712 proofs and keeps every unknown key', () => {
    const parsed = stampCredentialResponseSchema.parse(eip712Credential)
    expect(parsed).toEqual(eip712Credential)
    expect(parsed.proof['eip712Domain']).toEqual(eip712Credential.proof.eip712Domain)
  })

  test('the response credential schema still requires the hash and the dates', () => {
    const { hash: _hash, ...subject } = eip712Credential.credentialSubject
    expect(stampCredentialResponseSchema.safeParse({ ...eip712Credential, credentialSubject: subject }).success).toBe(false)
    expect(stampCredentialResponseSchema.safeParse({ ...eip712Credential, expirationDate: 'soon' }).success).toBe(false)
  })

  test('a page normalizes absent/null tokens to null and drops a null metadata', () => {
    const page = {
      items: [
        { version: '1.0.0', credential: eip712Credential, metadata: null },
        {
          version: '1.0.0',
          credential: jwsCredential,
          metadata: { group: 'Account Name', platform: { id: 'Google', name: 'Google', extra: 1 }, name: 'Google', hash: '0x1' },
        },
      ],
    }
    const parsed = stampListPageResponseSchema.parse(page)
    expect(parsed.next).toBeNull()
    expect(parsed.prev).toBeNull()
    expect('metadata' in (parsed.items[0] ?? {})).toBe(false)
    expect(parsed.items[1]?.metadata?.platform).toEqual({ id: 'Google', name: 'Google', extra: 1 })
    expect(stampListPageResponseSchema.parse({ ...page, next: 'https://api.passport.xyz/v2/stamps/0x?token=abc' }).next).toBe(
      'https://api.passport.xyz/v2/stamps/0x?token=abc',
    )
  })

  test('the canonical page requires next and prev and spec credentials', () => {
    expect(stampListPageSchema.safeParse({ next: null, prev: null, items: [{ version: '1', credential: jwsCredential }] }).success).toBe(
      true,
    )
    expect(stampListPageSchema.safeParse({ items: [] }).success).toBe(false)
    expect(stampListPageSchema.safeParse({ next: null, prev: null, items: [{ version: '1', credential: eip712Credential }] }).success).toBe(
      false,
    )
  })

  test('a page item without version or with a broken credential fails', () => {
    expect(stampListPageResponseSchema.safeParse({ items: [{ credential: eip712Credential }] }).success).toBe(false)
    expect(stampListPageResponseSchema.safeParse({ items: [{ version: '1', credential: {} }] }).success).toBe(false)
    expect(stampListPageResponseSchema.safeParse({ items: 'x' }).success).toBe(false)
  })

  test('the query schema applies defaults and bounds', () => {
    expect(stampListQuerySchema.parse({})).toEqual({ include_metadata: false })
    expect(stampListQuerySchema.parse({ include_metadata: 'true', limit: '50', token: 'abc' })).toEqual({
      include_metadata: true,
      limit: 50,
      token: 'abc',
    })
    expect(stampListQuerySchema.safeParse({ limit: '1001' }).success).toBe(false)
    expect(stampListQuerySchema.safeParse({ limit: '0' }).success).toBe(false)
    expect(stampListQuerySchema.safeParse({ include_metadata: 'maybe' }).success).toBe(false)
  })
})

describe('stamp metadata list (A4, C6)', () => {
  const platform = {
    id: 'Google',
    icon: './assets/googleStampIcon.svg',
    name: 'Google',
    description: 'Connect your existing Google Account to verify.',
    connectMessage: 'Connect Account',
    groups: [{ name: 'Account Name', stamps: [{ name: 'Google', description: 'Encrypted', hash: '0x01' }] }],
  }

  test('parses the list', () => {
    expect(stampMetadataListSchema.parse([platform])).toEqual([platform])
  })

  test('fails on a missing field or a wrong type', () => {
    const { connectMessage: _connectMessage, ...noConnectMessage } = platform
    expect(stampMetadataListSchema.safeParse([noConnectMessage]).success).toBe(false)
    expect(stampMetadataListSchema.safeParse([{ ...platform, groups: {} }]).success).toBe(false)
    expect(stampMetadataListSchema.safeParse(platform).success).toBe(false)
  })
})
