/** What `verifyCredentials` checks in its parameters and the chain before any read. */
import { humanCredentials, type HumanCredential, type NetworkConstants } from '../../chain/constants.js'
import { InvalidParameterError } from '../../errors/index.js'

export function checkChain(network: NetworkConstants, chainId: number, how: 'connected to' | 'declared for'): void {
  if (network.chainId === chainId) return
  throw new InvalidParameterError({
    parameter: 'network',
    reason: `The client is ${how} chain ${chainId}, but the network "${network.name}" is chain ${network.chainId}. Reading another chain's contracts would give wrong answers.`,
  })
}

export function checkNetwork(network: NetworkConstants, allowSandbox: boolean, wantsCleanHands: boolean): void {
  if (network.sandbox && !allowSandbox) {
    throw new InvalidParameterError({
      parameter: 'allowSandbox',
      reason: `${network.name} (chain ${network.chainId}) is a sandbox where anyone can mint SBTs; its results never count for production. Pass allowSandbox: true to read it anyway (results are marked sandbox: true).`,
    })
  }
  if (wantsCleanHands && !network.contracts.signProtocol) {
    throw new InvalidParameterError({
      parameter: 'credentials',
      reason: `clean-hands is confirmed on Sign Protocol, which has no address on ${network.name} (chain ${network.chainId}); clean-hands attestations live on Optimism. Pass constants.contracts.signProtocol to use another registry.`,
    })
  }
}

export function parseCredentials<credential extends HumanCredential>(value: readonly credential[]): credential[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidParameterError({ parameter: 'credentials', reason: `Expected a non-empty array of ${humanCredentials.join(', ')}.` })
  }
  for (const entry of value) {
    if (!(humanCredentials as readonly string[]).includes(entry)) {
      throw new InvalidParameterError({ parameter: 'credentials', reason: `"${String(entry)}" is not one of ${humanCredentials.join(', ')}.` })
    }
  }
  return [...new Set(value)]
}

