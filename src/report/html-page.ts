/**
 * What the HTML reports (`scan` and `diff`) share: the page around them, escaping, charts, the
 * errors and notices panels, and the data tables.
 *
 * Every string from the server is data. In the page's markup it goes through `html()` (control
 * characters shown as escapes, `& < > " '` as entities), in text and in double-quoted attributes
 * alike. For the script it is JSON inside `<script type="application/json">`, with `<`, `>`, `&`,
 * U+2028 and U+2029 written as \u escapes so that nothing in it can end the block, and the script
 * renders it with textContent. The Content-Security-Policy allows the page's one style sheet and
 * one script by their SHA-256 and nothing else: no request leaves the file.
 */
import {createHash} from 'node:crypto'

import {SEVERITIES} from '../engine/rule.js'
import {escapeControl} from '../util/escape.js'
import {HTML_SCRIPT, HTML_STYLE} from './html-assets.js'
import type {SeverityCounts} from './summary.js'

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}

/** Text safe in HTML text and in a double- or single-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (char) => ENTITIES[char]!)
}

/** A server string for the page's markup: control characters as visible escapes, then HTML-escaped. */
export const html = (s: string): string => escapeHtml(escapeControl(s))

const SCRIPT_UNSAFE: Record<string, string> = {'<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029'}

/** JSON for a `<script type="application/json">` block: nothing inside can close it (`</script>`) or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => SCRIPT_UNSAFE[char]!)
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** The page's policy: nothing may load; only the inlined style sheet and script, by hash, apply. Made once per page. */
function contentSecurityPolicy(): string {
  return `default-src 'none'; style-src ${sha256Source(HTML_STYLE)}; script-src ${sha256Source(HTML_SCRIPT)}; base-uri 'none'; form-action 'none'`
}

export function pageStart(title: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">\n` +
    '<meta name="referrer" content="no-referrer">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${html(title)}</title>\n<style>${HTML_STYLE}</style>\n</head>\n<body>\n<main>\n`
  )
}

export function pageEnd(version: string): string {
  return `<footer>Written by onedev-audit ${html(version)}. This file is self-contained: it loads nothing from anywhere.</footer>\n</main>\n<script>${HTML_SCRIPT}</script>\n</body>\n</html>\n`
}

/** `2026-11-22 10:00 UTC` in a `<time>`, or the text as it is when it is not an ISO date-time. */
export function timeHtml(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(?::\d\d(?:\.\d+)?)?Z$/.exec(iso)
  return match ? `<time datetime="${html(iso)}">${match[1]} ${match[2]} UTC</time>` : html(iso)
}

export const number = (n: number): string => n.toLocaleString('en')

/**
 * The verdict at a glance, beside the title: how bad and how complete in one badge. `tone` colours it
 * (`bad` red, `warn` amber, `info` blue, `good` green: only a complete audit that found nothing is
 * good news); `href` points at what it summarises.
 */
export interface Badge {
  text: string
  tone: 'bad' | 'warn' | 'info' | 'good'
  href?: string
}

/** The heading block: title, subtitle and the badge, then the table of contents. */
export function headerHtml(options: {title: string; subtitle: string; badge: Badge; sections: [string, string][]}): string {
  const {badge} = options
  const status = badge.href === undefined ? `<span class="status tone-${badge.tone}">${html(badge.text)}</span>` : `<a class="status tone-${badge.tone}" href="${badge.href}">${html(badge.text)}</a>`
  const toc = options.sections.map(([id, title]) => `<a href="#${id}">${html(title)}</a>`).join('\n')
  return `<header>\n<div>\n<h1>${html(options.title)}</h1>\n<p class="subtitle">${html(options.subtitle)}</p>\n</div>\n${status}\n</header>\n<nav class="toc" aria-label="Sections">\n${toc}\n</nav>\n`
}

/** The facts of the run (values already HTML) as a definition list. */
export function factsHtml(facts: [string, string][]): string {
  return `<dl class="facts">\n${facts.map(([term, value]) => `<dt>${html(term)}</dt><dd>${value}</dd>`).join('\n')}\n</dl>\n`
}

/**
 * Text with Markdown code spans (`` `on branch "main"` ``, as the rules write them) as `<code>`: every
 * piece HTML-escaped (html()), a backtick without its pair kept as it is. The script does the same
 * with DOM nodes (HTML_SCRIPT, withCode).
 */
export function codeHtml(text: string): string {
  const parts = text.split('`')
  return parts.map((part, i) => (i % 2 === 0 ? html(part) : i < parts.length - 1 ? `<code>${html(part)}</code>` : `\`${html(part)}`)).join('')
}

export function legendHtml(items: readonly string[]): string {
  return `<ul class="legend">${items.map((item) => `<li class="${item}">${html(item.replace('-', ' '))}</li>`).join('')}</ul>`
}

const LABEL_WIDTH = 150
/** Characters of a label that fit its width (a plugin's rule family may be longer: cut, whole in its tooltip). */
const LABEL_CHARS = 22
const CHART_WIDTH = 560
const ROW_HEIGHT = 24

/** One horizontal bar per row, split into coloured segments: an inline SVG with a text alternative. */
export function barChartSvg(title: string, rows: readonly {label: string; segments: readonly {className: string; value: number}[]}[]): string {
  const max = Math.max(1, ...rows.map((row) => row.segments.reduce((sum, s) => sum + s.value, 0)))
  const barWidth = CHART_WIDTH - LABEL_WIDTH - 60
  const height = rows.length * ROW_HEIGHT
  const parts = rows.map((row, i) => {
    const y = i * ROW_HEIGHT
    const total = row.segments.reduce((sum, s) => sum + s.value, 0)
    let x = LABEL_WIDTH
    const bars = row.segments
      .filter((segment) => segment.value > 0)
      .map((segment) => {
        const width = Math.max(1, (segment.value / max) * barWidth)
        const rect = `<rect class="fill-${segment.className}" x="${x.toFixed(1)}" y="${y + 5}" width="${width.toFixed(1)}" height="${ROW_HEIGHT - 10}" rx="2"><title>${html(`${segment.className.replace('-', ' ')}: ${segment.value}`)}</title></rect>`
        x += width
        return rect
      })
    return (
      `<text x="0" y="${y + 16}">${html(row.label.length > LABEL_CHARS ? `${row.label.slice(0, LABEL_CHARS - 1)}…` : row.label)}<title>${html(row.label)}</title></text>` +
      `<rect class="track" x="${LABEL_WIDTH}" y="${y + 5}" width="${barWidth}" height="${ROW_HEIGHT - 10}" rx="2"/>` +
      bars.join('') +
      `<text class="count" x="${(x + 6).toFixed(1)}" y="${y + 16}">${number(total)}</text>`
    )
  })
  return `<svg class="chart" viewBox="0 0 ${CHART_WIDTH} ${height}" width="${CHART_WIDTH}" height="${height}" role="img" aria-label="${html(title)}"><title>${html(title)}</title>${parts.join('')}</svg>`
}

/** Counts by severity, one bar each. */
export function severityChartSvg(title: string, counts: SeverityCounts): string {
  return barChartSvg(title, SEVERITIES.map((severity) => ({label: severity, segments: [{className: severity, value: counts[severity]}]})))
}

/** Lines shown at once in an errors or notices panel; the rest are behind "N more". */
const PANEL_LINES = 12

/**
 * The errors or notices, as prominent as on the console: a coloured panel near the top, each line
 * `label message` (already HTML), the first few at once and the rest in a <details>.
 */
export function problemsHtml(kind: 'errors' | 'notices', title: string, intro: string, lines: readonly string[]): string {
  if (lines.length === 0) return ''
  const item = (line: string) => `<li>${line}</li>`
  const first = lines.slice(0, PANEL_LINES).map(item).join('\n')
  const rest = lines.slice(PANEL_LINES)
  const more = rest.length === 0 ? '' : `\n<details><summary>${number(rest.length)} more</summary>\n<ul>\n${rest.map(item).join('\n')}\n</ul>\n</details>`
  return `<section class="problems ${kind}" id="${kind}">\n<h2>${html(title)}</h2>\n${intro === '' ? '' : `<p>${html(intro)}</p>\n`}<ul>\n${first}\n</ul>${more}\n</section>\n`
}

export interface Column {
  title: string
  /**
   * badge: a coloured label (severity, status, classification); number: right-aligned, sorted
   * numerically; lines: a list of texts (a string[] cell), one per line.
   */
  kind: 'badge' | 'text' | 'number' | 'lines'
  /** Text with Markdown code spans: shown as code (codeHtml), never with the backticks. */
  code?: boolean
  /** The column's values (shown as they are), in their sort order: a row holds an index into it. */
  dict?: readonly string[]
  /** A filter of this dictionary column, labelled so. */
  filter?: string
  /** Its values filter another table's column with the same dictionary (a project → its findings). */
  goto?: {table: string; column: number}
  className?: string
}

export interface DataTable<T> {
  id: string
  /** What a row is, plural: `findings`. */
  noun: string
  columns: readonly Column[]
  items: readonly T[]
  /** A row: an index into the column's dictionary, else the text (escapeControl'd), texts (lines) or number. */
  cells: (item: T) => (string | number | string[])[]
  /** Rows written as HTML, for reading without JavaScript (the script pages through all of them). */
  htmlRows: number
  search?: boolean
  /** When there is no row at all. */
  empty: string
}

function cellHtml(column: Column, value: string | number | string[]): string {
  const classes = [column.className, column.kind === 'number' && value === 0 ? 'zero' : undefined].filter(Boolean).join(' ')
  const open = classes === '' ? '<td>' : `<td class="${classes}">`
  const textHtml = column.code ? codeHtml : html
  if (Array.isArray(value)) return `${open}${value.map((line) => `<div>${textHtml(line)}</div>`).join('')}</td>`
  const text = column.dict ? column.dict[value as number]! : String(value)
  if (column.kind === 'badge') return text === '' ? `${open}</td>` : `${open}<span class="badge${/^[a-z][a-z -]*$/.test(text) ? ` b-${text.replaceAll(' ', '-')}` : ''}">${html(text)}</span></td>`
  return `${open}${textHtml(text)}</td>`
}

/**
 * A table: its filters (shown by the script), its first `htmlRows` rows as HTML, a note when there
 * are more, and all rows as JSON for the script, which filters, sorts and pages through them.
 * Written row by row.
 */
export function* dataTableHtml<T>(table: DataTable<T>): Generator<string, void, undefined> {
  const {columns, items} = table
  if (items.length === 0) {
    yield `<p class="empty-state">${html(table.empty)}</p>\n`
    return
  }
  const filtered = columns.flatMap((column, index) => (column.filter && column.dict ? [index] : []))
  const counts = new Map(filtered.map((index) => [index, new Array<number>(columns[index]!.dict!.length).fill(0)]))
  if (filtered.length > 0) {
    for (const item of items) {
      const row = table.cells(item)
      for (const [index, list] of counts) list[row[index] as number]!++
    }
  }
  const selects = filtered.map((index) => {
    const column = columns[index]!
    const options = column.dict!.flatMap((value, i) => (counts.get(index)![i]! > 0 ? [`<option value="${i}">${html(value === '' ? '(none)' : value)} (${number(counts.get(index)![i]!)})</option>`] : []))
    return `<label>${html(column.filter!)}<select data-column="${index}"><option value="">All</option>${options.join('')}</select></label>`
  })
  const search = table.search ? '<label>Search<input type="search" data-search placeholder="Text in any column" aria-label="Search"></label>' : ''
  yield `<section class="data" data-table="${table.id}" data-noun="${html(table.noun)}">\n<div class="controls" hidden>\n${[...selects, search].join('\n')}\n</div>\n`
  const headers = columns.map((column) => (column.kind === 'number' ? `<th class="num">${html(column.title)}</th>` : `<th>${html(column.title)}</th>`)).join('')
  yield `<div class="table-wrap">\n<table>\n<thead><tr>${headers}</tr></thead>\n<tbody>\n`
  const shown = Math.min(table.htmlRows, items.length)
  for (let i = 0; i < shown; i++) {
    const row = table.cells(items[i]!)
    yield `<tr>${row.map((value, index) => cellHtml(columns[index]!, value)).join('')}</tr>\n`
  }
  yield '</tbody>\n</table>\n</div>\n'
  if (shown < items.length) {
    yield `<p class="note nojs">The first ${number(shown)} of ${number(items.length)} ${html(table.noun)} are shown here. With JavaScript on, this page filters, sorts and pages through all of them; the JSON and SARIF reports list them all.</p>\n`
  }
  yield '</section>\n'
  const spec = columns.map((column) => ({
    kind: column.kind,
    ...(column.code ? {code: true} : {}),
    ...(column.dict ? {dict: column.dict} : {}),
    ...(column.goto ? {goto: column.goto} : {}),
    ...(column.className ? {className: column.className} : {}),
  }))
  yield `<script type="application/json" id="data-${table.id}">{"columns":${scriptJson(spec)},"rows":[`
  let separator = ''
  for (const item of items) {
    yield separator + scriptJson(table.cells(item))
    separator = ','
  }
  yield ']}</script>\n'
}
