/**
 * Colour in the terminal, where the terminal has it: on a TTY, unless `NO_COLOR` is set (to
 * anything but the empty string, per no-color.org) or `TERM` is `dumb`; `FORCE_COLOR` (not `0`)
 * turns it on for a pipe. Without colour each function returns its text unchanged.
 */

/** The colours the CLI uses, by meaning. */
export type Colours = {
  enabled: boolean
  /** A yes, a pass, an outcome that holds. */
  good(text: string): string
  /** A no, a failure. */
  bad(text: string): string
  /** What a reader must not miss: an outcome that flips. */
  warn(text: string): string
  bold(text: string): string
}

/** Parameters of {@link createColours}. */
export type CreateColoursParameters = {
  stream?: { isTTY?: boolean } | undefined
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Decides whether to colour and returns the colour functions.
 *
 * @example
 * const colours = createColours({ stream: process.stdout, env: process.env })
 * console.log(colours.good('yes'))
 */
export function createColours({ stream, env }: CreateColoursParameters): Colours {
  const enabled =
    !(env.NO_COLOR !== undefined && env.NO_COLOR !== '') && env.TERM !== 'dumb' && (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' ? env.FORCE_COLOR !== '0' : stream?.isTTY === true)
  const sgr = (open: string, close: string) => (text: string) => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text)
  return { enabled, good: sgr('32', '39'), bad: sgr('31', '39'), warn: sgr('1;33', '22;39'), bold: sgr('1', '22') }
}

/** No colour. */
export const noColours: Colours = createColours({ env: { NO_COLOR: '1' } })
