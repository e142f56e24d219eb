import { describe, expect, test } from 'vitest'
import { renderAuditSummaryTable } from '../../src/audit/report/render.js'
import { createColours } from '../../src/utils/colour.js'
import { colourVerifyLine } from '../../src/cli/verify.js'
import { sampleAudit } from '../audit/fixtures.js'

const tty = { isTTY: true }
const pipe = { isTTY: false }

describe('colour in the terminal', () => {
  test('on a TTY only; NO_COLOR (non-empty) and TERM=dumb turn it off; FORCE_COLOR turns it on for a pipe', () => {
    expect(createColours({ stream: tty, env: {} }).enabled).toBe(true)
    expect(createColours({ stream: pipe, env: {} }).enabled).toBe(false)
    expect(createColours({ stream: tty, env: { NO_COLOR: '1' } }).enabled).toBe(false)
    expect(createColours({ stream: tty, env: { NO_COLOR: '' } }).enabled).toBe(true)
    expect(createColours({ stream: tty, env: { TERM: 'dumb' } }).enabled).toBe(false)
    expect(createColours({ stream: pipe, env: { FORCE_COLOR: '1' } }).enabled).toBe(true)
    expect(createColours({ stream: tty, env: { FORCE_COLOR: '0' } }).enabled).toBe(false)
    expect(createColours({ stream: pipe, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).enabled).toBe(false)
  })

  test('the audit summary colours the outcome line when it flips, and nothing without colour', () => {
    const result = sampleAudit()
    const coloured = renderAuditSummaryTable(result, { colours: createColours({ stream: tty, env: {} }) })
    expect(coloured.split('\n')[1]).toBe('\u001b[1;33mCounting only verified humans changes the outcome: "Against" leads with all voting power, "For" with verified voting power only.\u001b[22;39m')
    const plain = renderAuditSummaryTable(result, { colours: createColours({ stream: tty, env: { NO_COLOR: '1' } }) })
    expect(plain).toBe(renderAuditSummaryTable(result))
    // eslint-disable-next-line no-control-regex -- looking for escape sequences is the point
    expect(plain).not.toMatch(/\u001b/)
  })

  test('verify colours each yes and no, and the final answer', () => {
    const colours = createColours({ stream: tty, env: {} })
    expect(colourVerifyLine('  yes  gov-id      valid', colours)).toBe('  \u001b[32myes\u001b[39m  gov-id      valid')
    expect(colourVerifyLine('  no   phone       none', colours)).toBe('  \u001b[31mno\u001b[39m   phone       none')
    expect(colourVerifyLine('Eligible: no, by no source.', colours)).toBe('\u001b[31mEligible: no, by no source.\u001b[39m')
    expect(colourVerifyLine('passport:', colours)).toBe('passport:')
  })
})
