/**
 * The stamp catalogue of the demo world: Passport-like providers, their stamps, default weights, the
 * weight changes of the alternate scorer and how common each stamp is. Internal data of the
 * generator; the world carries the public parts (metadata and scorer weights).
 * @internal
 */

export type CatalogueStamp = {
  name: string
  description: string
  /** Weight under the default scorer (decimal string). */
  weight: string
  /**
   * Share of "regular" wallets holding the stamp. In a ladder, only the first rung's popularity is a
   * share of wallets; a later rung's is the chance to hold it given the rung before. Other personas
   * scale the shares (see `worldMix.stampMultiplier` in generate/mix.ts).
   */
  popularity: number
}

export type CatalogueGroup = {
  name: string
  /** A ladder: holding a rung means holding every rung before it (e.g. contribution >= 10, >= 100). */
  ladder: boolean
  stamps: CatalogueStamp[]
}

export type CataloguePlatform = {
  id: string
  name: string
  description: string
  connectMessage: string
  groups: CatalogueGroup[]
}

const stamp = (name: string, weight: string, popularity: number, description: string): CatalogueStamp => ({
  name,
  weight,
  popularity,
  description,
})
const group = (name: string, stamps: CatalogueStamp[], ladder = false): CatalogueGroup => ({ name, ladder, stamps })
const platform = (id: string, name: string, description: string, groups: CatalogueGroup[]): CataloguePlatform => ({
  id,
  name,
  description,
  connectMessage: `Connect Account`,
  groups,
})

/** The providers, in the order A4 lists them. */
export const catalogue: readonly CataloguePlatform[] = [
  platform('Google', 'Google', 'Connect your existing Google Account to verify.', [
    group('Account Name', [stamp('Google', '0.525', 0.5, 'Encountered a Google account.')]),
  ]),
  platform('Discord', 'Discord', 'Connect your existing Discord account to verify.', [
    group('Account Name', [stamp('Discord', '0.516', 0.45, 'Encountered a Discord account.')]),
  ]),
  platform('Github', 'GitHub', 'Connect your existing GitHub account to verify.', [
    group(
      'Contribution Activity',
      [
        stamp('githubContributionActivityGte#30', '1.200', 0.22, 'Contributions on at least 30 distinct days.'),
        stamp('githubContributionActivityGte#60', '1.500', 0.55, 'Contributions on at least 60 distinct days.'),
        stamp('githubContributionActivityGte#120', '1.800', 0.45, 'Contributions on at least 120 distinct days.'),
      ],
      true,
    ),
  ]),
  platform('Linkedin', 'LinkedIn', 'Connect your existing LinkedIn account to verify.', [
    group('Account Name', [stamp('Linkedin', '1.531', 0.18, 'Encountered a LinkedIn account.')]),
  ]),
  platform('Ens', 'ENS', 'Purchase an .eth name to verify and connect it to your address.', [
    group('Account Name', [stamp('Ens', '0.408', 0.22, 'Owns or is the primary name of an ENS domain.')]),
  ]),
  platform('Twitter', 'X', 'Connect your existing X account to verify.', [
    group(
      'Account Age',
      [
        stamp('twitterAccountAgeGte#180', '0.600', 0.25, 'X account older than 180 days.'),
        stamp('twitterAccountAgeGte#365', '0.800', 0.7, 'X account older than 365 days.'),
        stamp('twitterAccountAgeGte#730', '1.000', 0.6, 'X account older than 730 days.'),
      ],
      true,
    ),
  ]),
  platform('Holonym', 'Human ID', 'Prove your unique humanity with a privacy-preserving Human ID credential.', [
    group('Government ID', [stamp('HolonymGovIdProvider', '16.026', 0.04, 'Unique government ID proof.')]),
    group('Phone', [stamp('HolonymPhone', '1.500', 0.05, 'Unique phone number proof.')]),
    group('Clean Hands', [stamp('CleanHands', '2.000', 0.01, 'Sanctions and PEP screening passed.')]),
  ]),
  platform('Binance', 'Binance', 'Verify that you hold a Binance Account Bound Token (BABT).', [
    group('Binance Account Bound Token', [stamp('BinanceBABT2', '10.000', 0.05, 'Holds a BABT.')]),
  ]),
  platform('Coinbase', 'Coinbase', 'Connect a verified Coinbase account and an on-chain attestation.', [
    group('Coinbase Verified', [stamp('CoinbaseDualVerification2', '10.000', 0.1, 'Verified Coinbase account.')]),
  ]),
  platform('GnosisSafe', 'Safe', 'Verify that you are a signer of a Safe.', [
    group('Signer', [stamp('GnosisSafe', '0.500', 0.05, 'Signer of at least one Safe.')]),
  ]),
  platform('Lens', 'Lens', 'Verify that you hold a Lens handle.', [
    group('Lens Handle', [stamp('Lens', '0.930', 0.06, 'Holds a Lens handle.')]),
  ]),
  platform('Brightid', 'BrightID', 'Verify with BrightID, a social identity network.', [
    group('Verified', [stamp('Brightid', '0.800', 0.03, 'BrightID verified.')]),
  ]),
  platform('GtcStaking', 'GTC Staking', 'Stake GTC on yourself or on others.', [
    group(
      'Self Staking',
      [
        stamp('SelfStakingBronze', '1.000', 0.05, 'Self staked at least 5 GTC.'),
        stamp('SelfStakingSilver', '2.000', 0.5, 'Self staked at least 20 GTC.'),
        stamp('SelfStakingGold', '3.000', 0.4, 'Self staked at least 125 GTC.'),
      ],
      true,
    ),
    group(
      'Community Staking',
      [
        stamp('BeginnerCommunityStaker', '1.500', 0.03, 'Staked on at least one other wallet.'),
        stamp('ExperiencedCommunityStaker', '2.500', 0.5, 'Staked on at least two other wallets.'),
        stamp('TrustedCitizen', '5.000', 0.3, 'Received stakes from at least five wallets.'),
      ],
      true,
    ),
  ]),
  platform('GrantsStack', 'Gitcoin Grants Contributor', 'Contributions to Gitcoin Grants rounds.', [
    group(
      'Contribution Amount',
      [
        stamp('GitcoinContributorStatistics#totalContributionAmountGte#10', '1.300', 0.12, 'Contributed at least $10.'),
        stamp('GitcoinContributorStatistics#totalContributionAmountGte#100', '2.250', 0.45, 'Contributed at least $100.'),
        stamp('GitcoinContributorStatistics#totalContributionAmountGte#1000', '3.650', 0.25, 'Contributed at least $1000.'),
      ],
      true,
    ),
  ]),
  platform('ETH', 'ETH Activity', 'Your on-chain history on Ethereum mainnet.', [
    group('Activity', [
      stamp('ETHDaysActive#50', '1.500', 0.2, 'Active on at least 50 distinct days.'),
      stamp('ETHGasSpent#0.25', '2.000', 0.18, 'Spent at least 0.25 ETH on gas.'),
      stamp('ETHnumTransactions#100', '1.500', 0.2, 'Sent at least 100 transactions.'),
    ]),
    group(
      'Model Score',
      [
        stamp('ETHScore#50', '10.000', 0.12, 'Ethereum activity model score of at least 50.'),
        stamp('ETHScore#75', '2.000', 0.6, 'Ethereum activity model score of at least 75.'),
        stamp('ETHScore#90', '2.000', 0.4, 'Ethereum activity model score of at least 90.'),
      ],
      true,
    ),
  ]),
  platform('NFT', 'NFT Holder', 'Hold NFTs on Ethereum mainnet.', [
    group(
      'Collector',
      [
        stamp('NFT', '1.000', 0.14, 'Holds at least one NFT.'),
        stamp('NFTScore#50', '1.500', 0.5, 'NFT collector score of at least 50.'),
        stamp('NFTScore#75', '2.000', 0.5, 'NFT collector score of at least 75.'),
        stamp('NFTScore#90', '2.500', 0.4, 'NFT collector score of at least 90.'),
      ],
      true,
    ),
  ]),
  platform('Snapshot', 'Snapshot', 'Vote or create proposals on Snapshot.', [
    group('Voter', [stamp('SnapshotVotesProvider', '0.500', 0.12, 'Voted on at least two DAO proposals.')]),
    group('Proposal Author', [stamp('SnapshotProposalsProvider', '0.689', 0.04, 'Created a proposal that was voted on.')]),
  ]),
  platform('GuildXYZ', 'Guild Membership', 'Membership and roles on Guild.xyz.', [
    group('Guild Member', [
      stamp('GuildMember', '0.500', 0.1, 'Member of more than five guilds.'),
      stamp('GuildAdmin', '1.000', 0.03, 'Owner or administrator of a guild.'),
      stamp('GuildPassportMember', '0.689', 0.06, 'Member of the Passport guild.'),
    ]),
  ]),
  platform('Civic', 'Civic', 'Prove you are human with a Civic Pass.', [
    group('Civic Pass', [
      stamp('CivicCaptchaPass', '1.000', 0.06, 'Holds a Civic CAPTCHA Pass.'),
      stamp('CivicUniquenessPass', '2.000', 0.03, 'Holds a Civic Uniqueness Pass.'),
      stamp('CivicLivenessPass', '3.000', 0.03, 'Holds a Civic Liveness Pass.'),
    ]),
  ]),
  platform('Outdid', 'Outdid', 'Prove your unique humanity with a zk proof of your passport.', [
    group('zk Passport', [stamp('Outdid', '10.000', 0.03, 'Unique zk passport proof.')]),
  ]),
  platform('TrustaLabs', 'Trusta Labs', 'Sybil risk assessment by Trusta Labs.', [
    group('Risk Score', [stamp('TrustaLabs', '0.500', 0.05, 'Low sybil risk score.')]),
  ]),
  platform('Idena', 'Idena', 'Proof of personhood through Idena flip validations.', [
    group('Identity State', [stamp('IdenaState#Human', '2.000', 0.02, 'Idena identity state is Human.')]),
  ]),
  platform('ZkSync', 'zkSync', 'Activity on zkSync Era.', [
    group('zkSync Era', [stamp('ZkSyncEra', '0.500', 0.06, 'At least five transactions on zkSync Era.')]),
  ]),
]

/**
 * A retired stamp: wallets still hold a few, but it is in no catalogue and no scorer weighs it
 * (it counts 0 and is still listed).
 */
export const retiredStamp = { name: 'Poh', popularity: 0.02 } as const

/**
 * Weight changes of the alternate scorer ("2025 weights"): a new weight, or null when the stamp is no
 * longer weighed.
 */
export const alternateWeightChanges: Readonly<Record<string, string | null>> = {
  Lens: null,
  Brightid: null,
  Ens: '0.200',
  Discord: '0.300',
  Google: '0.800',
  HolonymGovIdProvider: '20.000',
  CoinbaseDualVerification2: '8.000',
  'ETHScore#50': '12.000',
  Outdid: '12.500',
}

/** Stamps sybil farms present the same credential for (cheap to farm). */
export const farmableStamps: readonly string[] = [
  'Google',
  'Discord',
  'Linkedin',
  'githubContributionActivityGte#30',
  'twitterAccountAgeGte#180',
  'GuildMember',
  'SnapshotVotesProvider',
  'ETHDaysActive#50',
  'ETHnumTransactions#100',
  'CivicCaptchaPass',
  'TrustaLabs',
  'ZkSyncEra',
]

/** Every stamp of the catalogue, in order. */
export const catalogueStamps: readonly CatalogueStamp[] = catalogue.flatMap((p) => p.groups.flatMap((g) => g.stamps))

/** Default weights, stamp name to decimal string, in catalogue order. */
export function defaultWeights(): Record<string, string> {
  return Object.fromEntries(catalogueStamps.map((s) => [s.name, s.weight]))
}

/** Weights of the alternate scorer. */
export function alternateWeights(): Record<string, string> {
  const weights: Record<string, string> = {}
  for (const s of catalogueStamps) {
    const change = alternateWeightChanges[s.name]
    if (change === null) continue
    weights[s.name] = change ?? s.weight
  }
  return weights
}
