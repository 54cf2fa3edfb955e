/**
 * Notices as people read them (stylish, markdown, the lines on stderr). A server that speaks only the
 * contract, or an older OneDev, lacks a dozen endpoints: one notice each buries the findings. So the
 * not-evaluated notices that say which families of checks they concern are grouped into one: a line
 * per family (and one for notices of no known family), with what was not evaluated and why;
 * `--verbose` lists them one by one. The JSON and SARIF reports always keep every notice.
 */
import type {CheckFamily, NotEvaluatedReason, ReportNotice} from '../engine/coverage.js'
import type {Notice} from '../types/report-types.js'
import {plural} from './summary.js'

export interface ShownNotice {
  kind: Notice['kind']
  message: string
  /** A group's lines, one per family of checks; `message` introduces them. */
  items?: string[]
}

const FAMILIES: readonly CheckFamily[] = ['branches and tags', 'access model', 'server hardening']

/** A group's lines: one per family, then one for notices of no known family, which are never left out. */
const LINES: ReadonlyArray<{line: string; concerns: (families: readonly CheckFamily[]) => boolean}> = [
  ...FAMILIES.map((family) => ({line: family, concerns: (families: readonly CheckFamily[]) => families.includes(family)})),
  {line: 'other checks', concerns: (families) => families.length === 0},
]

/** Why, for a family, from how many of its notices gave each reason. */
const REASONS: ReadonlyArray<[NotEvaluatedReason, (count: number) => string]> = [
  ['not offered', (count) => `${plural(count, 'endpoint')} the server does not offer`],
  ['answers of another shape', (count) => `${plural(count, 'endpoint')} whose answers have a shape the audit does not know`],
  ['failed for some projects', (count) => `${plural(count, 'part')} of some repositories that could not be read (the errors say which)`],
  ['not in the snapshot', () => 'the default branches are not in the snapshot'],
  ['not collected', (count) => `${plural(count, 'endpoint')} with no answer for some projects (the snapshot predates them)`],
]

/** At least this many not-evaluated notices are grouped. */
const GROUPED_FROM = 2

export function shownNotices(notices: readonly ReportNotice[], verbose: boolean): ShownNotice[] {
  const grouped = notices.filter((notice) => notice.group !== undefined)
  if (verbose || grouped.length < GROUPED_FROM) return notices.map(({kind, message}) => ({kind, message}))
  const items = LINES.flatMap(({line, concerns}) => {
    const mine = grouped.filter((notice) => concerns(notice.group!.families))
    const reasons = REASONS.flatMap(([reason, phrase]) => {
      const count = mine.filter((notice) => notice.group!.reason === reason).length
      return count > 0 ? [phrase(count)] : []
    })
    const notes = mine.flatMap((notice) => (notice.group!.note ? [notice.group!.note] : []))
    return reasons.length > 0 ? [`${line}: ${reasons.join('; ')}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`] : []
  })
  const group: ShownNotice = {
    kind: 'not-evaluated',
    message: `some checks were not evaluated, so none of them passed (--verbose lists the ${grouped.length} notices one by one, as the JSON report does):`,
    items,
  }
  const first = notices.indexOf(grouped[0]!)
  return [...notices.slice(0, first).map(({kind, message}) => ({kind, message})), group, ...notices.slice(first).filter((notice) => notice.group === undefined).map(({kind, message}) => ({kind, message}))]
}

/** A shown notice on one line (stderr). */
export function noticeLine(notice: ShownNotice): string {
  return notice.items ? `${notice.message} ${notice.items.join('; ')}` : notice.message
}
