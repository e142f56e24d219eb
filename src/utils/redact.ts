/**
 * Removes secrets from text that may end up in an error or a log: each secret (API key, bearer
 * token) and any `user:password@` in URLs becomes `[redacted]`.
 *
 * @example
 * import { redact } from 'personhood'
 * redact('key sk_123456 at https://u:p@host', ['sk_123456']) // 'key [redacted] at https://[redacted]@host'
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(/\/\/[^/@\s:]+:[^/@\s]+@/g, '//[redacted]@')
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  return out
}

/**
 * Returns a URL string without credentials, for messages.
 *
 * @example
 * import { redactUrl } from 'personhood'
 * redactUrl('https://user:secret@rpc.example/v1') // 'https://[redacted]@rpc.example/v1'
 */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  return redact(String(url), secrets)
}
