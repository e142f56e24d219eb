/** The plan of `verifyCredentials`'s reads: calls grouped for a multicall, each with what to do with its result. */
import type { CallResult, ContractCall } from '../../chain/multicall.js'

/** Calls to run in one multicall, each with what to do with its result. */
export class CallPlan {
  readonly calls: ContractCall[] = []
  readonly handlers: ((result: CallResult) => void)[] = []
  add(call: ContractCall, handler: (result: CallResult) => void) {
    this.calls.push(call)
    this.handlers.push(handler)
  }
}
