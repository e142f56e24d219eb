/**
 * The default network, with no dependency: `--help` prints it before any command loads viem
 * (`./parse.js` re-exports it).
 */

/**
 * The network a command or an audit is on when none is given (and no proposal names one): Optimism
 * (10), where Human ID's credentials live. One default for `score`, `verify` and `audit`.
 */
export const defaultNetwork = '10'
