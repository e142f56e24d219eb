/**
 * score-api's `api-v2` strategy, written from field notes §6 (not imported): with `type: "api-post"`
 * it POSTs `{ options, network, snapshot, addresses }` as JSON to `options.url` with `Accept` and
 * `Content-Type: application/json` and `X-Snapshot-API-Strategy-Secret: sha256(url + salt)` (hex);
 * with `type: "api-get"` it GETs `url?network=&snapshot=&addresses=a,b` (plus `additionalParameters`)
 * and hashes that whole URL. It reads `{ score: [{ address, score }] }`: a body that is not JSON or
 * has no `score` is an error; an address missing from the answer counts 0; each score is
 * `parseFloat(formatUnits(String(score), decimals))` (decimals default 0).
 */
import { createHash } from 'node:crypto'
import { formatUnits, getAddress } from 'viem'

export type ApiV2Options = { url: string; type?: 'api-post' | 'api-get'; decimals?: number; additionalParameters?: string; [option: string]: unknown }

export class ApiV2Error extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(message)
  }
}

/** What api-v2 does with a space's params: the scores by checksummed address, or it throws. */
export async function apiV2(
  options: ApiV2Options,
  call: { network: string; snapshot: number | 'latest'; addresses: string[] },
  salt: string | undefined,
): Promise<{ scores: Record<string, number>; response: Response }> {
  let url = options.url
  const type = options.type ?? 'api-get'
  let body: string | null = null
  if (type === 'api-get') {
    url += `?network=${call.network}&snapshot=${call.snapshot}&addresses=${call.addresses.join(',')}`
    if (options.additionalParameters) url += `&${options.additionalParameters}`
  } else {
    body = JSON.stringify({ options, network: call.network, snapshot: call.snapshot, addresses: call.addresses })
  }
  const secret = createHash('sha256').update(`${url}${salt}`).digest('hex')
  const response = await fetch(url, {
    method: type === 'api-post' ? 'POST' : 'GET',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Snapshot-API-Strategy-Secret': secret },
    body,
  })
  const text = await response.text()
  let data: { score?: { address?: string; score?: unknown }[] }
  try {
    data = JSON.parse(text) as typeof data
  } catch {
    throw new ApiV2Error(`[api-v2] Errors found in API: URL: ${url}, Status: ${response.status}`, response.status, text)
  }
  if (!data?.score) throw new ApiV2Error('Invalid response from API', response.status, text)
  const decimals = Object.hasOwn(options, 'decimals') ? (options.decimals as number) : 0
  const scores = Object.fromEntries(
    call.addresses.map((address) => {
      const found = data.score!.find((entry) => entry.address?.toLowerCase() === address.toLowerCase())
      const text = found?.score === undefined || found.score === null ? '0' : String(found.score)
      return [getAddress(address), Number.parseFloat(formatUnits(BigInt(text), decimals))]
    }),
  )
  return { scores, response }
}
