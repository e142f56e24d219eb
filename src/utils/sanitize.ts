/**
 * Text from outside (a proposal title, a choice label, a space name, a vote's reason, a server's
 * error message) made safe for where it is shown: a terminal, or a Markdown document.
 */
import { stripVTControlCharacters } from 'node:util'

/**
 * Text safe to print to a terminal: escape sequences (colours, OSC 8 links, screen clears, window
 * titles) removed whole, then every other control character (C0, DEL, C1) removed; line breaks are
 * kept only when `multiline` is set.
 *
 * @example
 * import { sanitizeTerminal } from './sanitize.js'
 * sanitizeTerminal('Yes\u001b]0;pwned\u0007\u001b[2J') // 'Yes'
 */
export function sanitizeTerminal(text: string, { multiline = true }: { multiline?: boolean } = {}): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const rest = stripVTControlCharacters(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
  return multiline ? rest : rest.replace(/[\n\t]+/g, ' ')
}

/**
 * Text safe inline in Markdown: one line (line breaks become spaces), control characters removed,
 * `<`, `>` and `&` as HTML entities (no raw HTML), and the characters that start a link, an image,
 * emphasis, code, a heading or a table cell backslash-escaped (text is never at a line's start, so
 * list markers need nothing).
 *
 * @example
 * import { escapeMarkdown } from './sanitize.js'
 * escapeMarkdown('[x](javascript:alert(1))') // '\\[x\\]\\(javascript:alert\\(1\\)\\)'
 */
export function escapeMarkdown(text: string): string {
  return sanitizeTerminal(text, { multiline: false })
    .replace(/[\\`*_{}[\]()#!|~]/g, (character) => `\\${character}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}
