/**
 * The voter page as HTML: one self-contained document (its style inline, no script, no font,
 * image or file from elsewhere) that reads on a 390 px phone, with labelled fields, headings in
 * order and text at WCAG AA contrast. Every value is escaped by hono's `h` helper. Nothing the
 * operator configured (an API key, the salt, an RPC URL) is ever an input of this module.
 */
import { html, raw } from 'hono/html'
import { formatVerdictTime } from '../../utils/verdict-words.js'
import type { VoterCheck, VoterCheckInput } from './check.js'

type Html = ReturnType<typeof raw>

/** hono's `h`, escaping every value; synchronous here (no value is a promise). */
function h(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return html(strings, ...values) as Html
}

const style = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff; }
main { max-width: 760px; margin: 0 auto; padding: 20px 16px 48px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .2rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.8rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid #d0d7de; }
p, li, dd, td, th { overflow-wrap: anywhere; }
a { color: #0b5cad; }
a:focus, input:focus, select:focus, textarea:focus, button:focus, summary:focus { outline: 3px solid #0b5cad; outline-offset: 2px; }
code { font: .9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.lead { color: #3d444d; margin-top: 0; }
form { display: grid; gap: 14px; margin: 1rem 0; }
label { display: grid; gap: 4px; font-weight: 600; }
.hint { font-weight: 400; font-size: .9rem; color: #3d444d; }
input, select, textarea { font: inherit; width: 100%; padding: 10px; border: 1px solid #6e7781; border-radius: 6px; background: #fff; color: inherit; min-width: 0; }
textarea { min-height: 5.5rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
fieldset { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 14px 14px; margin: 0; display: grid; gap: 12px; min-width: 0; }
legend { font-weight: 600; padding: 0 4px; }
button { font: inherit; font-weight: 600; padding: 11px 18px; border: 0; border-radius: 6px; background: #0b5cad; color: #fff; cursor: pointer; justify-self: start; }
.answer { border: 2px solid; border-radius: 10px; padding: 12px 16px; margin: 1rem 0; }
.answer h2 { border: 0; margin: 0 0 .2rem; padding: 0; font-size: .95rem; }
.answer p { margin: 0; font-size: 1.15rem; font-weight: 600; }
.answer.yes { border-color: #1a7f37; background: #effaf1; color: #0f5323; }
.answer.no { border-color: #b42318; background: #fff3f1; color: #8a1c12; }
.answer.unknown { border-color: #9a6700; background: #fff8e5; color: #6b4700; }
.answer .score { display: block; font-size: .95rem; font-weight: 400; margin-top: .3rem; color: #1b1f24; }
.error { border: 2px solid #b42318; background: #fff3f1; color: #8a1c12; border-radius: 8px; padding: 10px 14px; }
ul.steps, ul.reasons { padding-left: 1.2rem; }
ul.steps li, ul.reasons li { margin: .4rem 0; }
.credentials { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
.credentials li { border: 1px solid #d0d7de; border-radius: 8px; padding: 8px 12px; }
.credentials .name { font-weight: 600; }
.badge { display: inline-block; font-size: .85rem; font-weight: 600; padding: 1px 8px; border-radius: 999px; margin-left: 6px; }
.badge.held { background: #dafbe1; color: #0f5323; }
.badge.not { background: #ffebe9; color: #8a1c12; }
.via { display: block; font-size: .85rem; color: #3d444d; }
dl.facts { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: 4px 14px; margin: 0; }
dl.facts dt { color: #3d444d; }
dl.facts dd { margin: 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer { margin-top: 2.5rem; font-size: .85rem; color: #3d444d; }
@media (max-width: 480px) {
  h1 { font-size: 1.35rem; }
  main { padding: 14px 12px 32px; }
  dl.facts { grid-template-columns: minmax(0, 1fr); gap: 0; }
  dl.facts dd { margin-bottom: 6px; }
  button { width: 100%; }
}
`

function page(title: string, body: Html): string {
  return String(h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(style)}</style>
</head>
<body>
<main>
${body}
<footer>Served by a personhood strategy server: the page runs the space’s own strategy for one address at the snapshot, the same answer the space counts.</footer>
</main>
</body>
</html>
`)
}

/** What the form offers: the strategies and networks this server serves. */
export type VoterFormChoices = { strategies: readonly string[]; networks: readonly string[] }

function form(input: Partial<VoterCheckInput>, choices: VoterFormChoices, headingLevel: 'h1' | 'h2'): Html {
  const heading = headingLevel === 'h1' ? h`<h1 id="form-title">Does my address count in this vote?</h1>` : h`<h2 id="form-title">Check another address</h2>`
  const fromProposal = Boolean(input.proposal)
  return h`<section aria-labelledby="form-title">
${heading}
${headingLevel === 'h1' ? h`<p class="lead">A personhood strategy gives a vote only to verified humans. Enter your address to see, for this space’s configuration and snapshot, each credential’s verdict, the rule that decides, and what to do next.</p>` : ''}
<form method="get" action="/voters/check">
<label for="address">Your address <span class="hint">The wallet you vote with: 0x followed by 40 hexadecimal characters.</span></label>
<input id="address" name="address" type="text" inputmode="text" autocomplete="off" spellcheck="false" required pattern="\\s*0[xX][0-9a-fA-F]{40}\\s*" placeholder="0x…" value="${input.address ?? ''}">
<label for="proposal">Snapshot proposal id <span class="hint">The space’s link fills it in. The proposal gives the strategy, its options, the network and the snapshot.</span></label>
<input id="proposal" name="proposal" type="text" autocomplete="off" spellcheck="false" placeholder="0x…" value="${input.proposal ?? ''}">
<details${fromProposal ? '' : raw(' open')}>
<summary>Or the space’s configuration</summary>
<fieldset>
<legend class="sr-only">The space’s configuration</legend>
<label for="strategy">Strategy</label>
<select id="strategy" name="strategy">${choices.strategies.map((name) => h`<option value="${name}"${name === (input.strategy ?? 'human-verification') ? raw(' selected') : ''}>${name}</option>`)}</select>
<label for="options">Options (JSON) <span class="hint">As in the space’s strategy settings; empty for the defaults.</span></label>
<textarea id="options" name="options" spellcheck="false">${input.options ?? ''}</textarea>
<label for="network">Network (chain id)</label>
<select id="network" name="network">${choices.networks.map((network) => h`<option value="${network}"${network === (input.network ?? '10') ? raw(' selected') : ''}>${network}</option>`)}</select>
<label for="snapshot">Snapshot block <span class="hint">The proposal’s snapshot block, or latest.</span></label>
<input id="snapshot" name="snapshot" type="text" inputmode="numeric" autocomplete="off" value="${input.snapshot ?? 'latest'}">
</fieldset>
</details>
<button type="submit">Check this address</button>
</form>
</section>`
}

/** The page with the form alone (`GET /voters`), filled from the query (a space's link). */
export function renderVoterForm(input: Partial<VoterCheckInput>, choices: VoterFormChoices): string {
  return page('Does my address count? · personhood', form(input, choices, 'h1'))
}

/** The form again with what went wrong, in words the voter can act on. */
export function renderVoterError(input: Partial<VoterCheckInput>, choices: VoterFormChoices, message: string): string {
  return page(
    'Check failed · personhood',
    h`<h1>The address could not be checked</h1>
<div class="error" role="alert"><p>${message}</p></div>
${form(input, choices, 'h2')}`,
  )
}

function answerClass(check: VoterCheck): string {
  return check.words.counted === true ? 'yes' : check.words.counted === false ? 'no' : 'unknown'
}

/** The result page (`GET /voters/check`): the answer, why, what to do next, each credential, the rule. */
export function renderVoterResult(check: VoterCheck, input: Partial<VoterCheckInput>, choices: VoterFormChoices): string {
  const { words } = check
  const when = check.snapshot ? `block ${Number(check.snapshot.blockNumber).toLocaleString('en-US')} (${formatVerdictTime(check.snapshot.timestamp)})` : `block ${check.requested}`
  return page(
    `${words.counted === true ? 'Counted' : words.counted === false ? 'Not counted' : 'Not known'} · personhood`,
    h`<h1>Does <code>${check.address}</code> count?</h1>
<section class="answer ${answerClass(check)}" aria-labelledby="answer-title">
<h2 id="answer-title">The answer</h2>
<p id="verdict">${words.headline}</p>
${check.score === null ? '' : h`<span class="score">Score from ${check.strategy}: ${String(check.score)}</span>`}
</section>
<section aria-labelledby="why-title">
<h2 id="why-title">Why</h2>
<ul class="reasons" id="reasons">${words.reasons.map((reason) => h`<li>${reason}</li>`)}</ul>
</section>
<section aria-labelledby="next-title">
<h2 id="next-title">What to do next</h2>
<ul class="steps" id="next-steps">${words.nextSteps.map((step) => h`<li>${step.text}${step.url ? h` <a href="${step.url}" rel="noopener noreferrer">${step.url.replace(/^https:\/\//, '')}</a>` : ''}</li>`)}</ul>
</section>
${check.verdicts.length
  ? h`<section aria-labelledby="credentials-title">
<h2 id="credentials-title">Each source’s verdict</h2>
<ul class="credentials">${check.verdicts.map(
      (verdict) => h`<li><span class="name">${verdict.name}</span><span class="badge ${verdict.held ? 'held' : 'not'}">${verdict.status}</span>${verdict.via ? h`<span class="via">From ${verdict.via}.</span>` : ''}</li>`,
    )}</ul>
</section>`
  : ''}
<section aria-labelledby="rule-title">
<h2 id="rule-title">The rule that decides</h2>
<p id="rule">${check.rule}</p>
<dl class="facts">
${check.proposal ? h`<dt>Proposal</dt><dd>${check.proposal.title} <span class="hint">(${check.proposal.space})</span></dd>` : ''}
<dt>Strategy</dt><dd><code>${check.strategy}</code></dd>
<dt>Network</dt><dd>${check.network}</dd>
<dt>Snapshot</dt><dd>${when}</dd>
</dl>
</section>
${form({ ...input, address: '' }, choices, 'h2')}`,
  )
}
