/**
 * Removes secrets from text that may end up in an error or a log: each secret (API key, bearer
 * token) and any `user:password@` in URLs becomes `[redacted]`.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(/\/\/[^/@\s:]+:[^/@\s]+@/g, '//[redacted]@')
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  return out
}

/** Returns a URL string without credentials, for messages. */
export function redactUrl(url: string | URL, secrets: readonly (string | undefined)[] = []): string {
  return redact(String(url), secrets)
}
