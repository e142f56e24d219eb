/**
 * Removes secrets from text that may end up in an error or a log. One redaction for every message:
 * in each URL in the text, `user:password@` becomes `[redacted]@`, a path segment that looks like a
 * key (16 or more letters, digits, `_` or `-`, with both letters and digits, and not a 0x hex value
 * such as an address or a hash) becomes `[redacted]`, and every query value becomes `[redacted]`
 * except those of parameters known to carry no secret (`address`, `created_at`, `snapshot`...).
 * Each secret given (API key, bearer token, an RPC URL's path) becomes `[redacted]` wherever it is.
 *
 * @example
 * import { redact } from './redact.js'
 * redact('key sk_123456 at https://u:p@host', ['sk_123456']) // 'key [redacted] at https://[redacted]@host'
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, redactOneUrl)
}

/** Query parameters whose values are never secrets and help to read a message. */
const plainQueryParameters = new Set([
  'address',
  'addresses',
  'user',
  'created_at',
  'snapshot',
  'network',
  'limit',
  'offset',
  'page',
  'size',
  'include_metadata',
  'action-id',
  'model',
  'schemaid',
  'attester',
  'recipient',
  'last_score_timestamp_gt',
  'last_score_timestamp__gt',
  'last_score_timestamp_gte',
  'last_score_timestamp__gte',
])

function looksLikeKey(segment: string): boolean {
  if (segment.length < 16 || !/^[A-Za-z0-9_-]+$/.test(segment)) return false
  if (/^0x[0-9a-fA-F]+$/.test(segment)) return false
  return /[0-9]/.test(segment) && /[A-Za-z]/.test(segment)
}

function redactOneUrl(url: string): string {
  // Trailing punctuation is the sentence's, not the URL's.
  const trailing = /[.,;:)\]}]+$/.exec(url)?.[0] ?? ''
  const body = trailing ? url.slice(0, -trailing.length) : url
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(body)
  if (!match) return url
  const [, scheme, authority = '', path = '', query, fragment] = match
  const at = authority.lastIndexOf('@')
  const host = at === -1 ? authority : `[redacted]@${authority.slice(at + 1)}`
  const shownPath = path
    .split('/')
    .map((segment) => (looksLikeKey(segment) ? '[redacted]' : segment))
    .join('/')
  const shownQuery =
    query === undefined
      ? ''
      : `?${query
          .slice(1)
          .split('&')
          .map((pair) => {
            const equals = pair.indexOf('=')
            if (equals === -1) return pair
            const name = pair.slice(0, equals)
            let decoded = name
            try {
              decoded = decodeURIComponent(name)
            } catch {
              decoded = name
            }
            return plainQueryParameters.has(decoded.toLowerCase()) ? pair : `${name}=[redacted]`
          })
          .join('&')}`
  return `${scheme}${host}${shownPath}${shownQuery}${fragment ?? ''}${trailing}`
}

/**
 * Returns a URL string without credentials, key-like path segments or secret query values, for
 * messages (see {@link redact}).
 *
 * @example
 * import { redactUrl } from './redact.js'
 * redactUrl('https://user:secret@rpc.example/v1') // 'https://[redacted]@rpc.example/v1'
 */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  return redact(String(url), secrets)
}

/**
 * The parts of a URL the user gave (an RPC endpoint) that may hold a key: its path and its query,
 * as secrets for {@link redact}. Providers put keys in the path (`/v3/<key>`) in any shape, so the
 * whole path of a configured endpoint is treated as secret.
 *
 * @example
 * import { urlSecrets } from './redact.js'
 * urlSecrets('https://mainnet.example/v3/SECRETKEY') // ['/v3/SECRETKEY']
 */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return []
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return [url]
  }
  const secrets: string[] = []
  if (parsed.pathname.length > 1) secrets.push(parsed.pathname.replace(/\/+$/, ''))
  if (parsed.search.length > 1) secrets.push(parsed.search.slice(1))
  if (parsed.username) secrets.push(parsed.username)
  if (parsed.password) secrets.push(parsed.password)
  return secrets.filter((secret) => secret.length >= 4)
}
