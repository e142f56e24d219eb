/** The services' records of the world: the stamp catalogue, the scorers, the API keys and the stamp issuers. */
import { keccak256, toBytes } from 'viem'
import { alternateWeights, catalogue, defaultWeights } from '../catalogue.js'
import { defaultThreshold } from '../constants.js'
import type { ApiKey, Scorer, StampProvider } from '../types.js'
import type { Draft } from './draft.js'

/** The stamp providers of the catalogue, as A4 lists them. */
export function stampProviders(): StampProvider[] {
  return catalogue.map((p) => ({
    id: p.id,
    icon: `./assets/${p.id.charAt(0).toLowerCase()}${p.id.slice(1)}StampIcon.svg`,
    name: p.name,
    description: p.description,
    connectMessage: p.connectMessage,
    groups: p.groups.map((g) => ({
      name: g.name,
      stamps: g.stamps.map((s) => ({ name: s.name, description: s.description, hash: keccak256(toBytes(s.name)) })),
    })),
  }))
}

/** The four scorers: the default, one with the 2025 weights, a binary one, a community round. */
export function scorers(): Scorer[] {
  return [
    { id: 1, name: 'Unique Humanity', type: 'unique-humanity', threshold: defaultThreshold, weights: defaultWeights() },
    { id: 2, name: 'Unique Humanity (2025 weights)', type: 'unique-humanity', threshold: defaultThreshold, weights: alternateWeights() },
    { id: 3, name: 'Binary Unique Humanity', type: 'binary', threshold: defaultThreshold, weights: defaultWeights() },
    { id: 4, name: 'Community Round', type: 'unique-humanity', threshold: '15', weights: defaultWeights() },
  ]
}

/** One API key per tier, derived from the seed. */
export function apiKeys(d: Draft): ApiKey[] {
  const key = (name: string): string => {
    const hex = keccak256(toBytes(`${d.seed}:api-key:${name}`)).slice(2)
    return `${hex.slice(0, 8)}.${hex.slice(8, 40)}`
  }
  return [
    { key: key('demo'), name: 'demo', tier: 1, historyAllowlisted: false },
    { key: key('partner'), name: 'partner', tier: 2, historyAllowlisted: false },
    { key: key('analytics'), name: 'analytics', tier: 3, historyAllowlisted: true },
    { key: key('indexer'), name: 'indexer', tier: 4, historyAllowlisted: true },
  ]
}
