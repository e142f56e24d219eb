import { describe, expect, test } from 'vitest'
import type { AttestationIndex } from '../../verify/index.js'
import { client } from '../../../test/fixtures/attestation-index.js'

describe('clean-hands rule on the index rows', () => {
  test('the client fits the verifier’s AttestationIndex', () => {
    const index: AttestationIndex = client()
    expect(typeof index.getAttestations).toBe('function')
  })
})
