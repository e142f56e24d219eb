export { checksumAddress, isValidAddress, normalizeAddress } from './address.js'
export { stringifyJson, toJson, type StringifyJsonOptions } from './json.js'
export {
  defaultActionId,
  parseActionId,
  parseAddress,
  parseBlockNumber,
  parseDate,
  parseInteger,
  parsePositiveInteger,
  parsePositiveIntegerId,
  parseTimestamp,
  type IntegerBounds,
} from './parse.js'
export { redact, redactUrl, urlSecrets } from './redact.js'
