export { checksumAddress, isValidAddress, normalizeAddress } from './address.js'
export { redact, redactUrl } from './redact.js'
