/**
 * The audit as one self-contained HTML document a DAO can publish: what was audited, a verdict card
 * with defined terms, the methodology, three charts, the outcome under each rule, linked-wallet
 * groups as cards, and a voter table. Nothing is loaded from outside (no font, image, style sheet
 * or script file); the page reads fully with scripts off: the first page of the table is rendered
 * here, and an inline script adds sorting, filters, search and pages over the voters, which are
 * embedded once as compact columns (not one DOM row per voter).
 */
import { escapeXml, methodChart, methodLabel, outcomeChart, scoreChart } from './charts.js'
import { gatedOutcomeTable } from './gated.js'
import { auditTitle, describeNetwork } from '../title.js'
import type { AuditResult, AuditSummary, AuditVoter } from '../types.js'
import type { VoterWords } from '../../utils/verdict-words.js'
import { auditVoterWords, formatChoice, voterHelp } from './voter.js'

/** Rows of the voter table rendered in the page (the first page, and each page the script shows). */
export const voterPageSize = 50

function formatPower(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

function formatPercent(value: number): string {
  return `${value.toFixed(1)}%`
}

function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z').replace('T', ' ')
}

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}

const originLabels: Record<string, string> = {
  listing: "from the scorer's listing of scores",
  history: "from the scorer's score history at the snapshot",
  live: 'read live (no record at the snapshot)',
  absent: 'never scored',
}

/**
 * The detail behind the label: every reason that applies in the shared words, where the Passport
 * score came from, and linked wallets.
 */
function reasonDetail(voter: AuditVoter, words: VoterWords): string {
  const parts = [...words.reasons]
  if (voter.passport && voter.passport.score !== null) parts.push(`The Passport score was read ${originLabels[voter.passport.origin] ?? voter.passport.origin}.`)
  for (const signal of voter.linked) {
    parts.push(`${signal.provider} stamp deduplicated${signal.otherAddress ? ` against ${signal.otherAddress}` : ''}${signal.basis ? ` (${signal.basis === 'named-by-service' ? 'named by the service' : 'same credential'})` : ''}.`)
  }
  return parts.join(' ') || 'No source verified this address.'
}

/** One linked-wallet group with its evidence and how it voted. */
type GroupCard = {
  index: number
  members: AuditVoter[]
  votingPower: number
  evidence: { provider: string; basis: string; pairs: number }[]
  votes: { choice: string; voters: number; votingPower: number }[]
}

function groupCards(result: AuditResult, labels?: readonly string[]): { cards: GroupCard[]; groupOf: Map<string, number> } {
  const byAddress = new Map(result.voters.map((voter) => [voter.address.toLowerCase(), voter]))
  const groupOf = new Map<string, number>()
  const cards = result.summary.clusters.map((cluster, index): GroupCard => {
    const members = cluster.addresses.flatMap((address) => byAddress.get(address.toLowerCase()) ?? [])
    for (const member of members) groupOf.set(member.address.toLowerCase(), index)
    const evidence = new Map<string, { provider: string; basis: string; pairs: number }>()
    for (const member of members) {
      for (const signal of member.linked) {
        const basis = signal.basis === 'named-by-service' ? 'named by the service' : signal.basis === 'same-credential' ? 'same credential' : 'deduplicated'
        const key = `${signal.provider}\u0000${basis}`
        const entry = evidence.get(key) ?? { provider: signal.provider, basis, pairs: 0 }
        entry.pairs++
        evidence.set(key, entry)
      }
    }
    const votes = new Map<string, { choice: string; voters: number; votingPower: number }>()
    for (const member of members) {
      const choice = formatChoice(member.choice, labels)
      const entry = votes.get(choice) ?? { choice, voters: 0, votingPower: 0 }
      entry.voters++
      entry.votingPower += member.votingPower
      votes.set(choice, entry)
    }
    return {
      index,
      members,
      votingPower: cluster.votingPower,
      evidence: [...evidence.values()].sort((a, b) => b.pairs - a.pairs || a.provider.localeCompare(b.provider)),
      votes: [...votes.values()].sort((a, b) => b.votingPower - a.votingPower),
    }
  })
  return { cards, groupOf }
}

/** The voter table's data as columns, strings shared through a dictionary: compact at 100,000 voters. */
type VoterColumns = {
  strings: string[]
  address: string[]
  choice: number[]
  power: number[]
  verified: number[]
  method: number[]
  label: number[]
  detail: number[]
  score: (number | null)[]
  group: number[]
}

function voterColumns(voters: readonly AuditVoter[], labels: readonly string[] | undefined, groupOf: Map<string, number>, run: AuditResult['run']): VoterColumns {
  const strings: string[] = []
  const index = new Map<string, number>()
  const intern = (text: string) => {
    let at = index.get(text)
    if (at === undefined) {
      at = strings.length
      strings.push(text)
      index.set(text, at)
    }
    return at
  }
  const columns: VoterColumns = { strings, address: [], choice: [], power: [], verified: [], method: [], label: [], detail: [], score: [], group: [] }
  for (const voter of voters) {
    columns.address.push(voter.address)
    columns.choice.push(intern(formatChoice(voter.choice, labels)))
    columns.power.push(voter.votingPower)
    columns.verified.push(voter.eligible ? 1 : 0)
    columns.method.push(intern(voter.eligible && voter.method ? voter.method : 'unverified'))
    const words = auditVoterWords(voter, run)
    columns.label.push(intern(words.label))
    columns.detail.push(intern(reasonDetail(voter, words)))
    columns.score.push(voter.passport ? voter.passport.score : null)
    columns.group.push(groupOf.get(voter.address.toLowerCase()) ?? -1)
  }
  return columns
}

/** JSON that is safe inside a `<script type="application/json">`: no `<`, no line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

function table(head: string[], rows: string[][], className = '', numeric: number[] = []): string {
  const cell = (tag: string, text: string, index: number) => `<${tag}${numeric.includes(index) ? ' class="num"' : ''}>${escapeXml(text)}</${tag}>`
  return `<div class="scroll"><table class="${className}"><thead><tr>${head.map((text, index) => cell('th', text, index)).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((text, index) => cell('td', text, index)).join('')}</tr>`)
    .join('\n')}</tbody></table></div>`
}

function leaderName(summary: AuditSummary, index: number | null): string {
  return index === null ? 'no single choice (a tie or no votes)' : (summary.outcome.choices[index]?.choice ?? '')
}

function header(result: AuditResult): string {
  const { run } = result
  const facts: [string, string][] = [
    ...(run.proposal ? ([['Space', run.proposal.space], ['Proposal id', run.proposal.id], ['Voting system', run.proposal.type]] as [string, string][]) : []),
    ['Strategy', run.strategy],
    ['Network', describeNetwork(run.network)],
    ['Snapshot block', `${Number(run.snapshot).toLocaleString('en-US')} · ${isoTime(run.blockTimestamp)}`],
    ['Votes from', run.votesSource],
  ]
  const title = auditTitle(result)
  return [
    '<header class="top">',
    `<p class="kicker">Voter audit${run.proposal ? ` · ${escapeXml(run.proposal.space)}` : ''}</p>`,
    `<h1>${escapeXml(title)}</h1>`,
    `<dl class="facts">${facts.map(([term, value]) => `<div><dt>${escapeXml(term)}</dt><dd>${escapeXml(value)}</dd></div>`).join('')}</dl>`,
    `<details class="options"><summary>Strategy options</summary><pre>${escapeXml(JSON.stringify(run.options, null, 2) ?? 'none')}</pre></details>`,
    '</header>',
  ].join('\n')
}

function verdictCard(result: AuditResult): string {
  const { summary } = result
  const flips = summary.outcome.leaderAll !== summary.outcome.leaderVerified
  const linkedVoters = summary.clusters.reduce((total, cluster) => total + cluster.voters, 0)
  return [
    '<section class="verdict" aria-labelledby="verdict-title">',
    '<h2 id="verdict-title">Verdict</h2>',
    '<div class="stats">',
    `<div class="stat"><span class="big" id="stat-verified">${summary.eligibleVoters.toLocaleString('en-US')}</span><span>of <b id="stat-voters">${summary.voters.toLocaleString('en-US')}</b> voters verified (${formatPercent(100 - summary.unverifiedShare)})</span></div>`,
    `<div class="stat"><span class="big">${formatPercent(100 - summary.unverifiedPowerShare)}</span><span>of the voting power held by verified voters</span></div>`,
    `<div class="stat ${flips ? 'flip' : 'same'}"><span class="big">${flips ? 'Flips' : 'Holds'}</span><span>${
      flips
        ? `“${escapeXml(leaderName(summary, summary.outcome.leaderAll))}” leads with all power; “${escapeXml(leaderName(summary, summary.outcome.leaderVerified))}” with verified power only`
        : `“${escapeXml(leaderName(summary, summary.outcome.leaderAll))}” leads either way`
    }</span></div>`,
    `<div class="stat"><span class="big">${summary.clusters.length.toLocaleString('en-US')}</span><span>linked-wallet ${summary.clusters.length === 1 ? 'group' : 'groups'} (${linkedVoters.toLocaleString('en-US')} voters)</span></div>`,
    '</div>',
    '<dl class="terms">',
    `<div><dt>Verified</dt><dd>The strategy <code>${escapeXml(result.run.strategy)}</code> counts the voter as a unique human at the snapshot block: one of its methods held for that address at that block.</dd></div>`,
    '<div><dt>Outcome flips</dt><dd>The leading choice counting all voting power differs from the leading choice counting only the power of verified voters.</dd></div>',
    '<div><dt>Linked group</dt><dd>Voters whose Passport stamps were deduplicated against each other: the same credential (a Google account, a Discord account…) was presented by more than one wallet, likely one person.</dd></div>',
    '</dl>',
    '</section>',
  ].join('\n')
}

function methodology(result: AuditResult): string {
  return [
    '<section aria-labelledby="method-title">',
    '<h2 id="method-title">Methodology</h2>',
    '<dl class="terms">',
    '<div><dt>Government ID, phone, biometrics</dt><dd>A Human ID soulbound token of that kind, unexpired and not revoked at the snapshot block, read from the Human ID hub contract (or the Human ID service when configured).</dd></div>',
    '<div><dt>Clean hands</dt><dd>A valid clean-hands attestation (Sign Protocol) for the address, from the attestation index, not expired at the snapshot.</dd></div>',
    "<div><dt>What the chain cannot see</dt><dd>Human ID's app and API first consult an off-chain blocklist and answer false for a listed address, which the chain still counts; the audit reads the chain, so a voter verified here may be refused in Human ID's app.</dd></div>",
    "<div><dt>Passport score</dt><dd>The address's Passport score at the snapshot reaches the threshold. The score comes from the scorer's listing of scores, its history at the snapshot, or a live read, as marked. Passport is asked only about voters no Human ID credential verified; the others are counted as “not asked”.</dd></div>",
    '<div><dt>Overlaps</dt><dd>A voter verified by several methods is counted once, under the first method of the policy that held (in the order government ID, phone, biometrics, clean hands, Passport), so the method counts add up to the verified voters.</dd></div>',
    "<div><dt>Linked wallets</dt><dd>Passport deduplicates a stamp presented by a second wallet. The audit links two voters when the service names the other wallet, or when another voter presented a stamp of the same provider with the same expiry (the same credential). Groups join all wallets connected by such links.</dd></div>",
    '<div><dt>What the audit cannot see</dt><dd>Wallets of one person that share no stamp (linked only off-chain, or through stamps the scorer did not deduplicate) are not linked; a voter verified by Human ID is not asked about Passport, so its stamps are not compared; a person with one verified wallet and other unverified wallets shows only as unverified voters. The counts of linked groups are therefore a lower bound.</dd></div>',
    '</dl>',
    `<p class="note">Re-run with the same inputs to get the same digest: <code class="digest">${escapeXml(result.digest)}</code> (personhood ${escapeXml(result.run.packageVersion)}).</p>`,
    '</section>',
  ].join('\n')
}

/** Where a voter checks an address, and how to get counted (the shared words' links). */
function votersHelpSection(result: AuditResult): string {
  const help = voterHelp(result)
  return [
    '<section aria-labelledby="help-title">',
    '<h2 id="help-title">For voters: check an address, get counted</h2>',
    `<p>${escapeXml(help.check)}</p>`,
    `<pre>${escapeXml(help.command)}</pre>`,
    '<ul class="help">',
    ...help.steps.map((step) => `<li>${escapeXml(step.text)} <a href="${escapeXml(step.url)}">${escapeXml(step.url)}</a></li>`),
    '</ul>',
    `<p class="note">${escapeXml(help.timing)}</p>`,
    '</section>',
  ].join('\n')
}

function outcomeSection(result: AuditResult): string {
  const { summary } = result
  const names = summary.outcome.choices.map((choice) => choice.choice)
  const totalAll = summary.outcome.choices.reduce((total, choice) => total + choice.all, 0)
  const totalVerified = summary.outcome.choices.reduce((total, choice) => total + choice.verified, 0)
  const rows = [
    ['All voting power', ...summary.outcome.choices.map((choice) => formatPower(choice.all)), formatPower(totalAll), leaderName(summary, summary.outcome.leaderAll)],
    ['Verified voters only', ...summary.outcome.choices.map((choice) => formatPower(choice.verified)), formatPower(totalVerified), leaderName(summary, summary.outcome.leaderVerified)],
  ]
  const gated = result.gated ? gatedOutcomeTable(result.gated) : undefined
  return [
    '<section aria-labelledby="outcome-title">',
    '<h2 id="outcome-title">The outcome under each rule</h2>',
    outcomeChart(summary),
    table(['Counting', ...names, 'Total', 'Leader'], rows, 'outcome-table', names.map((_, index) => index + 1).concat(names.length + 1)),
    summary.outcome.note ? `<p class="note">${escapeXml(summary.outcome.note)}</p>` : '',
    gated ? `<h3>${escapeXml(gated.title)}</h3>\n<p>${escapeXml(gated.intro)}</p>\n${table(gated.head, gated.rows, 'gated-table')}` : '',
    '</section>',
  ].join('\n')
}

function groupsSection(cards: GroupCard[], labels?: readonly string[]): string {
  if (!cards.length) return '<section aria-labelledby="groups-title"><h2 id="groups-title">Linked wallets</h2><p>No two voters share a deduplicated stamp.</p></section>'
  const blocs = new Set(cards.map((card) => (card.votes.length === 1 ? card.votes[0]!.choice : '')))
  const bloc = blocs.size === 1 && !blocs.has('') ? `<p>Every group voted “${escapeXml([...blocs][0]!)}” with all its wallets.</p>` : ''
  return [
    '<section aria-labelledby="groups-title">',
    '<h2 id="groups-title">Linked wallets</h2>',
    `<p>${cards.length.toLocaleString('en-US')} ${cards.length === 1 ? 'group' : 'groups'} of wallets share deduplicated stamps.</p>`,
    bloc,
    '<div class="cards">',
    ...cards.slice(0, 60).map((card) =>
      [
        `<article class="card" id="group-${card.index + 1}">`,
        `<h3>Group ${card.index + 1} · ${card.members.length} wallets · ${formatPower(card.votingPower)} power</h3>`,
        `<p class="evidence"><b>Shared:</b> ${card.evidence.map((item) => `${escapeXml(item.provider)} <span class="muted">(${escapeXml(item.basis)})</span>`).join(', ') || 'a deduplicated stamp'}</p>`,
        `<p class="voted"><b>Voted:</b> ${card.votes.map((vote) => `${escapeXml(vote.choice)} — ${vote.voters} ${vote.voters === 1 ? 'wallet' : 'wallets'}, ${formatPower(vote.votingPower)} power`).join('; ')}</p>`,
        `<ul class="wallets">${card.members
          .map((member) => `<li><code title="${escapeXml(member.address)}">${escapeXml(member.address)}</code> <span class="muted">${escapeXml(formatChoice(member.choice, labels))} · ${formatPower(member.votingPower)} · ${member.eligible ? 'verified' : 'not verified'}</span></li>`)
          .join('')}</ul>`,
        '</article>',
      ].join('\n'),
    ),
    '</div>',
    cards.length > 60 ? `<p class="note">The ${cards.length - 60} smaller groups are listed in audit.json; the voter table filters them with “Linked”.</p>` : '',
    '</section>',
  ].join('\n')
}

function voterRow(columns: VoterColumns, at: number): string {
  const s = columns.strings
  const score = columns.score[at]
  const group = columns.group[at]!
  return `<tr><td class="addr"><code title="${columns.address[at]}">${shortAddress(columns.address[at]!)}</code></td><td>${escapeXml(s[columns.choice[at]!]!)}</td><td class="num">${formatPower(columns.power[at]!)}</td><td>${columns.verified[at] ? '<span class="yes">yes</span>' : '<span class="no">no</span>'}</td><td class="why"><details><summary>${escapeXml(s[columns.label[at]!]!)}</summary><span class="full">${escapeXml(columns.address[at]!)}</span> ${escapeXml(s[columns.detail[at]!]!)}</details></td><td class="num opt">${score === null || score === undefined ? '' : String(score)}</td><td class="opt">${group >= 0 ? `G${group + 1}` : ''}</td></tr>`
}

function votersSection(result: AuditResult, columns: VoterColumns): string {
  const order = columns.power.map((_, index) => index).sort((a, b) => columns.power[b]! - columns.power[a]! || columns.address[a]!.localeCompare(columns.address[b]!))
  const first = order.slice(0, voterPageSize)
  const choiceOptions = result.run.proposal?.choices ?? result.run.choices
  const methods = [...new Set(columns.method.map((at) => columns.strings[at]!))]
  return [
    '<section aria-labelledby="voters-title">',
    '<h2 id="voters-title">Every voter</h2>',
    `<p class="noscript-note" id="voters-static">The ${first.length} voters with the most voting power of ${columns.address.length.toLocaleString('en-US')}. Every voter is in <code>audit.csv</code> and, with the evidence for each verdict, in <code>audit.json</code>; open this page with scripts on to sort, filter and search them here.</p>`,
    '<form class="controls" id="voter-controls" hidden>',
    '<label>Address <input type="search" id="f-search" placeholder="0x…" autocomplete="off"></label>',
    '<label>Verified <select id="f-verified"><option value="">all</option><option value="1">yes</option><option value="0">no</option></select></label>',
    `<label>Method <select id="f-method"><option value="">any</option>${methods.map((method) => `<option value="${escapeXml(method)}">${escapeXml(methodLabel(method))}</option>`).join('')}</select></label>`,
    `<label>Choice <select id="f-choice"><option value="">any</option>${(choiceOptions ?? []).map((choice) => `<option value="${escapeXml(choice)}">${escapeXml(choice)}</option>`).join('')}</select></label>`,
    '<label>Linked <select id="f-linked"><option value="">all</option><option value="1">in a group</option><option value="0">not linked</option></select></label>',
    '</form>',
    '<div class="scroll"><table class="voters" id="voters"><thead><tr>',
    '<th scope="col" data-key="address">Voter</th><th scope="col" data-key="choice">Choice</th><th scope="col" class="num" data-key="power" aria-sort="descending">Power</th><th scope="col" data-key="verified">Verified</th><th scope="col" data-key="label">Why</th><th scope="col" class="num opt" data-key="score">Passport</th><th scope="col" class="opt" data-key="group">Group</th>',
    `</tr></thead><tbody id="voter-rows">${first.map((at) => voterRow(columns, at)).join('\n')}</tbody></table></div>`,
    `<div class="pager" id="voter-pager" hidden><button type="button" id="p-prev">Previous</button><span id="p-status" aria-live="polite"></span><button type="button" id="p-next">Next</button></div>`,
    '</section>',
  ].join('\n')
}

/** The table's behaviour: sort by a header, filter, search by address, pages of {@link voterPageSize}. */
const voterScript = `(() => {
const d = JSON.parse(document.getElementById('voter-data').textContent);
const S = d.strings, n = d.address.length, size = ${voterPageSize};
const lower = d.address.map((a) => a.toLowerCase());
const $ = (id) => document.getElementById(id);
const state = { key: 'power', dir: -1, page: 0 };
const fmt = (v) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const value = {
  address: (i) => lower[i], choice: (i) => S[d.choice[i]], power: (i) => d.power[i], verified: (i) => d.verified[i],
  label: (i) => S[d.label[i]], score: (i) => (d.score[i] === null ? -1 : d.score[i]), group: (i) => d.group[i],
};
let rows = [];
function compute() {
  const q = $('f-search').value.trim().toLowerCase(), v = $('f-verified').value, m = $('f-method').value, c = $('f-choice').value, l = $('f-linked').value;
  rows = [];
  for (let i = 0; i < n; i++) {
    if (q && !lower[i].includes(q)) continue;
    if (v && String(d.verified[i]) !== v) continue;
    if (m && S[d.method[i]] !== m) continue;
    if (c && !(S[d.choice[i]] === c || S[d.choice[i]].split(/ > |, /).some((part) => part === c || part.startsWith(c + ': ')))) continue;
    if (l && (d.group[i] >= 0 ? '1' : '0') !== l) continue;
    rows.push(i);
  }
  const get = value[state.key], dir = state.dir;
  rows.sort((a, b) => { const x = get(a), y = get(b); return (x < y ? -1 : x > y ? 1 : 0) * dir || (lower[a] < lower[b] ? -1 : 1); });
  state.page = 0;
}
function cell(tr, text, cls) { const td = document.createElement('td'); if (cls) td.className = cls; td.textContent = text; tr.appendChild(td); return td; }
function render() {
  const body = $('voter-rows'), pages = Math.max(1, Math.ceil(rows.length / size));
  state.page = Math.min(state.page, pages - 1);
  const start = state.page * size, part = rows.slice(start, start + size);
  const out = document.createDocumentFragment();
  for (const i of part) {
    const tr = document.createElement('tr');
    const a = cell(tr, '', 'addr'), code = document.createElement('code');
    code.textContent = d.address[i].slice(0, 6) + '\\u2026' + d.address[i].slice(-4); code.title = d.address[i]; a.appendChild(code);
    cell(tr, S[d.choice[i]]); cell(tr, fmt(d.power[i]), 'num');
    const yes = cell(tr, ''), badge = document.createElement('span');
    badge.className = d.verified[i] ? 'yes' : 'no'; badge.textContent = d.verified[i] ? 'yes' : 'no'; yes.appendChild(badge);
    const why = cell(tr, '', 'why'), det = document.createElement('details'), sum = document.createElement('summary'), full = document.createElement('span');
    sum.textContent = S[d.label[i]]; full.className = 'full'; full.textContent = d.address[i];
    det.append(sum, full, ' ' + S[d.detail[i]]); why.appendChild(det);
    cell(tr, d.score[i] === null ? '' : String(d.score[i]), 'num opt'); cell(tr, d.group[i] >= 0 ? 'G' + (d.group[i] + 1) : '', 'opt');
    out.appendChild(tr);
  }
  body.replaceChildren(out);
  $('p-status').textContent = rows.length ? (start + 1).toLocaleString('en-US') + '\\u2013' + (start + part.length).toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' voters' : 'No voter matches';
  $('p-prev').disabled = state.page === 0; $('p-next').disabled = state.page >= pages - 1;
}
for (const th of document.querySelectorAll('#voters th[data-key]')) {
  const b = document.createElement('button'); b.type = 'button'; b.className = 'sort'; b.textContent = th.textContent; th.textContent = ''; th.appendChild(b);
  b.addEventListener('click', () => {
    const key = th.dataset.key;
    state.dir = state.key === key ? -state.dir : key === 'power' || key === 'score' || key === 'verified' ? -1 : 1; state.key = key;
    for (const other of document.querySelectorAll('#voters th')) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', state.dir < 0 ? 'descending' : 'ascending');
    compute(); render();
  });
}
for (const id of ['f-verified', 'f-method', 'f-choice', 'f-linked']) $(id).addEventListener('change', () => { compute(); render(); });
$('f-search').addEventListener('input', () => { compute(); render(); });
$('voter-controls').addEventListener('submit', (e) => e.preventDefault());
$('p-prev').addEventListener('click', () => { state.page--; render(); });
$('p-next').addEventListener('click', () => { state.page++; render(); });
$('voter-controls').hidden = false; $('voter-pager').hidden = false;
$('voters-static').textContent = 'Sort by a column header, filter, or search by address. Every voter is also in audit.csv and, with the evidence for each verdict, in audit.json.';
compute(); render();
})();`

const style = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: .1rem 0 .8rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem; padding-bottom: .3rem; border-bottom: 1px solid #dee2e6; }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p, dd, li, td, th, figcaption, summary { overflow-wrap: anywhere; }
code, pre { font: .85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: .6rem; border-radius: 6px; margin: .4rem 0 0; }
.kicker { margin: 0; color: #495057; font-size: .85rem; text-transform: uppercase; letter-spacing: .06em; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: .4rem 1.2rem; margin: 0; }
.facts div { min-width: 0; }
.facts dt { font-size: .75rem; color: #495057; text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; font-weight: 500; overflow-wrap: anywhere; }
.options { margin-top: .6rem; font-size: .9rem; }
.verdict { background: #f8f9fa; border: 1px solid #dee2e6; border-radius: 10px; padding: 4px 18px 14px; margin-top: 1.5rem; }
.verdict h2 { border: 0; margin-top: .8rem; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; }
.stat { background: #fff; border: 1px solid #dee2e6; border-radius: 8px; padding: 10px 12px; display: flex; flex-direction: column; min-width: 0; }
.stat .big { font-size: 1.9rem; font-weight: 700; line-height: 1.1; }
.stat.flip { border-color: #e8590c; } .stat.flip .big { color: #d9480f; }
.stat.same .big { color: #2b8a3e; }
.terms { margin: 1rem 0 0; }
.terms div { margin: .35rem 0; }
.terms dt { font-weight: 600; display: inline; }
.terms dt::after { content: ": "; }
.terms dd { display: inline; margin: 0; }
.note, .muted { color: #495057; }
.note { font-size: .9rem; }
.digest { overflow-wrap: anywhere; }
.chart { margin: 1rem 0 1.4rem; padding: 12px; border: 1px solid #e9ecef; border-radius: 8px; }
.chart-title { font-weight: 600; margin-bottom: .3rem; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; font-size: .85rem; margin-bottom: .6rem; }
.legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; border: 1px solid rgba(0,0,0,.15); }
.chart figcaption { font-size: .85rem; color: #495057; margin-top: .6rem; }
.hbars { display: grid; gap: 10px; }
.hbar-row { display: grid; grid-template-columns: minmax(90px, 11rem) minmax(0, 1fr); gap: 10px; align-items: center; }
.hbar-label { font-size: .9rem; text-align: right; overflow-wrap: anywhere; }
.hbar-bars { display: grid; gap: 3px; min-width: 0; }
.bar-line { display: flex; align-items: center; gap: 6px; min-width: 0; font-size: .8rem; }
.bar { display: inline-block; height: 14px; border-radius: 2px; flex: 0 1 auto; min-width: 1px; max-width: calc(100% - 8.5em); }
.bar-value { white-space: nowrap; color: #343a40; }
.hbar-axis { margin-left: calc(min(11rem, 30%) + 10px); display: flex; justify-content: space-between; font-size: .75rem; color: #6c757d; border-top: 1px solid #ced4da; padding-top: 2px; }
.hbar-row .hbar-bars { background: linear-gradient(to right, #f1f3f5 1px, transparent 1px) 0 0 / 25% 100%; }
.vbars-frame { display: grid; grid-template-columns: 1.4rem minmax(0, 1fr); }
.vbars-yaxis { position: relative; }
.vbars-yaxis span { position: absolute; left: 0; top: 50%; transform: translate(-30%, -50%) rotate(-90deg); font-size: .75rem; color: #495057; white-space: nowrap; }
.vbars { display: flex; align-items: stretch; gap: 3px; height: 190px; border-left: 1px solid #ced4da; padding-top: 20px; min-width: 0; }
.vbar-col { flex: 1 1 0; min-width: 0; display: flex; flex-direction: column; position: relative; }
.vbar-col.other { flex-grow: 1.4; }
.vbar-col.other:first-of-type, .vbar-col.other { margin-left: 2px; }
.vbar-area { flex: 1; display: flex; flex-direction: column; justify-content: flex-end; align-items: stretch; border-bottom: 1px solid #868e96; }
.vbar { display: block; min-height: 1px; border: 1px solid rgba(0,0,0,.12); border-bottom: 0; }
.vbar-count { font-size: .7rem; text-align: center; color: #343a40; }
.vbar-label { font-size: .7rem; text-align: center; color: #495057; line-height: 1.2; padding-top: 2px; overflow-wrap: normal; white-space: normal; }
.at-threshold { border-left: 2px dashed #d9480f; }
.threshold { position: absolute; top: -18px; left: 3px; font-size: .7rem; color: #d9480f; white-space: nowrap; }
.vbars-xaxis { text-align: center; font-size: .8rem; color: #495057; margin-top: .3rem; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e9ecef; vertical-align: top; }
th { font-size: .8rem; color: #495057; font-weight: 600; white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; overflow-wrap: normal; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 12px; }
.card { border: 1px solid #dee2e6; border-radius: 8px; padding: 4px 14px 10px; min-width: 0; }
.card h3 { margin-top: .6rem; }
.card p { margin: .3rem 0; font-size: .9rem; }
.wallets { list-style: none; padding: 0; margin: .4rem 0 0; font-size: .85rem; }
.wallets li { padding: 2px 0; border-top: 1px solid #f1f3f5; }
.wallets code { display: block; font-size: .78rem; overflow-wrap: anywhere; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 14px; margin: .6rem 0; font-size: .85rem; }
.controls[hidden], .pager[hidden] { display: none; }
.controls label { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.controls input, .controls select { font: inherit; padding: 4px 6px; border: 1px solid #ced4da; border-radius: 5px; max-width: 100%; }
.controls input { width: 15rem; }
.voters { table-layout: auto; font-size: .85rem; }
.voters td, .voters th { padding: .3rem .45rem; }
.voters .addr code { font-size: .8rem; white-space: nowrap; }
.voters td { overflow-wrap: normal; }
.voters .why { min-width: 9rem; overflow-wrap: break-word; }
.voters details summary { cursor: pointer; }
.voters details .full { font-family: ui-monospace, monospace; font-size: .78rem; display: block; }
.voters details[open] { font-size: .8rem; color: #343a40; }
.voters details[open] summary { font-size: .85rem; color: #1b1f24; }
th button.sort { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
.yes { color: #2b8a3e; font-weight: 600; } .no { color: #c92a2a; font-weight: 600; }
.help li { margin: .3rem 0; overflow-wrap: anywhere; }
.pager { display: flex; align-items: center; gap: 12px; justify-content: flex-end; font-size: .85rem; }
.pager button { font: inherit; padding: 4px 10px; border: 1px solid #ced4da; border-radius: 5px; background: #fff; cursor: pointer; }
footer { margin-top: 2.5rem; font-size: .8rem; color: #6c757d; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: 14px 12px 32px; }
  h1 { font-size: 1.35rem; }
  .voters .opt { display: none; }
  .voters td, .voters th { padding: .3rem .25rem; }
  .voters .why { min-width: 6.2rem; }
  .voters .addr code { font-size: .7rem; }
  .hbar-row { grid-template-columns: 1fr; gap: 2px; }
  .hbar-label { text-align: left; }
  .hbar-axis { margin-left: 0; }
  .bar { max-width: calc(100% - 9.5em); }
  .cards { grid-template-columns: minmax(0, 1fr); }
  .controls input { width: 100%; }
  .controls label:first-child { flex: 1 1 100%; }
  .vbar-label, .vbar-count { font-size: .6rem; letter-spacing: -.02em; }
  .vbars { gap: 2px; }
}
@media print {
  @page { margin: 14mm 12mm; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  .controls, .pager, .options { display: none !important; }
  h2 { break-after: avoid; margin-top: 1.2rem; }
  .chart, .card, .stat, tr { break-inside: avoid; }
  .verdict { background: none; }
  .voters { font-size: 7.5pt; }
  .voters td, .voters th { padding: 1px 3px; }
  .scroll { overflow: visible; }
  .cards { display: block; }
  .card { margin-bottom: 6px; }
  a { color: inherit; }
}
`

/**
 * The audit as a self-contained HTML document (see the module's comment), in chunks: the page, then
 * the voter table's data column by column (a few MB at 100,000 voters, never one string with the
 * page), then its script.
 *
 * @example
 * import { auditHtmlChunks } from 'personhood/audit'
 * for (const chunk of auditHtmlChunks(result)) stream.write(chunk)
 */
export function* auditHtmlChunks(result: AuditResult): Generator<string> {
  const { summary } = result
  const labels = result.run.proposal?.choices ?? result.run.choices
  const { cards, groupOf } = groupCards(result, labels)
  const columns = voterColumns(result.voters, labels, groupOf, result.run)
  const title = `Voter audit: ${auditTitle(result)}`
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="personhood ${escapeXml(result.run.packageVersion)}">
<title>${escapeXml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${header(result)}
${verdictCard(result)}
<section aria-labelledby="who-title">
<h2 id="who-title">Who was verified, and by what</h2>
${methodChart(summary)}
${scoreChart(summary)}
</section>
${outcomeSection(result)}
${groupsSection(cards, labels)}
${votersSection(result, columns)}
${votersHelpSection(result)}
${methodology(result)}
<footer>Generated by personhood ${escapeXml(result.run.packageVersion)} from ${escapeXml(result.run.votesSource)}. The same audit, voter by voter, is in audit.json (with every verdict's evidence) and audit.csv.</footer>
</main>
<script type="application/json" id="voter-data">`
  // The same text as scriptJson(columns), a column at a time.
  yield '{'
  for (const [index, [name, values]] of Object.entries(columns).entries()) yield `${index ? ',' : ''}${JSON.stringify(name)}:${scriptJson(values)}`
  yield `}</script>
<script>${voterScript}</script>
</body>
</html>
`
}

/**
 * The audit as one self-contained HTML document: {@link auditHtmlChunks} joined.
 *
 * @example
 * import { renderAuditHtml } from 'personhood/audit'
 * writeFileSync('audit.html', renderAuditHtml(result))
 */
export function renderAuditHtml(result: AuditResult): string {
  return [...auditHtmlChunks(result)].join('')
}
