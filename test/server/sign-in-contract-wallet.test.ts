/**
 * Sign-in (D13) by a smart-contract wallet, on a real EVM: an ERC-1271 wallet deployed on the
 * in-process EDR node, its owner signing the SIWE message, the server checking the signature through
 * a viem public client on that chain.
 */
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount, toAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { createStampCacheClient } from '../../src/clients/stamp-cache/index.js'
import { AuthenticationError } from '../../src/errors/index.js'
import { createServer } from '../../src/server/app.js'
import { TestChain } from '../chain/harness.js'
import { failure } from '../helpers/async.js'

const baseUrl = 'http://personhood.local'
let chain: TestChain
let wallet: Address
const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())

beforeAll(async () => {
  chain = await TestChain.start()
  wallet = await chain.deploy('TestSmartWallet')
  await chain.write(wallet, 'TestSmartWallet', 'setOwner', [owner.address])
})

/** The wallet as a viem account: its address, with messages signed by `signer`. */
function walletAccount(signer: typeof owner) {
  return toAccount({
    address: wallet,
    signMessage: ({ message }) => signer.signMessage({ message }),
    signTransaction: () => Promise.reject(new Error('not used')),
    signTypedData: () => Promise.reject(new Error('not used')),
  })
}

function setup() {
  const server = createServer({ chainClient: chain.client, adminToken: 'admin-token-for-wallet-tests' })
  const fetch = (input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init))
  return createStampCacheClient({ baseUrl, fetch: fetch as typeof globalThis.fetch, retry: false })
}

describe('sign-in by an ERC-1271 smart-contract wallet', () => {
  test("the owner's signature signs the wallet in (EOA recovery fails, ERC-1271 passes)", async () => {
    const cache = setup()
    const { accessToken } = await cache.signIn({ account: walletAccount(owner), domain: 'personhood.local', uri: baseUrl })
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')) as { did: string }
    expect(claims.did).toBe(`did:pkh:eip155:1:${wallet.toLowerCase()}`)
  })

  test("another key's signature is refused with 401", async () => {
    const cache = setup()
    const error = await failure(cache.signIn({ account: walletAccount(stranger), domain: 'personhood.local', uri: baseUrl }))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(401)
  })

  test('without a chain client the server cannot check a contract wallet and refuses it', async () => {
    const server = createServer({ adminToken: 'admin-token-for-wallet-tests' })
    const fetch = (input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init))
    const cache = createStampCacheClient({ baseUrl, fetch: fetch as typeof globalThis.fetch, retry: false })
    expect(await failure(cache.signIn({ account: walletAccount(owner), domain: 'personhood.local', uri: baseUrl }))).toBeInstanceOf(
      AuthenticationError,
    )
  })
})
