// The public part of utils/: JSON for answers that carry bigints. Address checks and parsing stay
// internal (viem's getAddress and isAddress serve a user).
export { stringifyJson, toJson, type StringifyJsonOptions } from './json.js'
