/**
 * The description of `onedev-audit notify`'s issue: Markdown as OneDev renders it (flexmark with the
 * autolink, GitLab and callout extensions; then jsoup's sanitizer; then its own processors that turn
 * `@name` into a mention, `#12`, `group/project#12` and `KEY-12` into links to issues, pull requests
 * and builds, and 40-hex runs into commit links, in any text outside `code`, `pre` and `a`).
 *
 * Every string that came from the server (project paths, branch and role names, and the finding
 * messages that quote them) goes through inertMarkdown: one line, control characters escaped, Markdown
 * punctuation backslash-escaped, `&`, `<` and `>` as entities so no HTML can form, and a zero-width
 * space (U+200B) where OneDev or flexmark would see a mention, a reference, a URL or a commit. The
 * marker (src/model/issue.ts) opens the description: an HTML comment, so the rendered page does not
 * show it, and a description OneDev cuts at its length limit still has it.
 */
import type {NotifyTarget} from '../engine/notify.js'
import type {RuleMeta, Severity} from '../engine/rule.js'
import {SEVERITIES} from '../engine/rule.js'
import {formatMarker} from '../model/issue.js'
import type {Finding} from '../types/report-types.js'
import {oneLine} from '../util/escape.js'
import {plural} from './summary.js'

/** OneDev keeps descriptions up to 100,000 characters (`Issue.MAX_DESCRIPTION_LEN`) and cuts longer ones: stay well below. */
export const MAX_DESCRIPTION_CHARS = 60_000

/** Findings listed per rule before `and N more`, tried in turn until the description fits. */
const LISTED_PER_RULE = [30, 10, 3, 0]

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;'}
const ZWSP = '\u200b'

/**
 * A server string as inert inline Markdown for OneDev (see the module comment): it renders as the
 * text it is, and mentions nobody, links nothing.
 */
export function inertMarkdown(text: string): string {
  return oneLine(text, 4000)
    .replace(/[\\`*_[\]|~${}#]/g, (char) => `\\${char}`)
    .replace(/[&<>]/g, (char) => ENTITIES[char]!)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/-(?=\d)/g, `-${ZWSP}`)
    .replace(/:(?=\/\/)/g, `:${ZWSP}`)
    .replace(/(www)\./gi, `$1${ZWSP}.`)
    .replace(/[0-9a-f]{40,}/gi, (run) => run.replace(/.{20}(?=.)/g, `$&${ZWSP}`))
}

/** One of our own strings (a command, a rule id) as a code span, fenced by more backticks than it holds. */
export function codeSpan(text: string): string {
  const line = oneLine(text, 4000)
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length))
  const fence = '`'.repeat(longest + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/**
 * What a rule's help says to do: its `**Fix.**` paragraph or its `## Fix` section (the two forms of
 * the built-in rules), as Markdown; null when it has neither.
 */
export function fixAdvice(help: string): string | null {
  const lines = help.split('\n')
  const bold = lines.findIndex((line) => /^\*\*Fix\.\*\*\s*/.test(line))
  if (bold >= 0) {
    const end = lines.findIndex((line, i) => i > bold && line.trim() === '')
    return lines.slice(bold, end < 0 ? undefined : end).join('\n').replace(/^\*\*Fix\.\*\*\s*/, '').trim() || null
  }
  const heading = lines.findIndex((line) => /^#{1,6}\s+Fix\s*$/.test(line))
  if (heading < 0) return null
  const end = lines.findIndex((line, i) => i > heading && /^#{1,6}\s/.test(line))
  return lines.slice(heading + 1, end < 0 ? undefined : end).join('\n').trim() || null
}

const SEVERITY_WORD: Record<Severity, string> = {critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info'}

export interface DescriptionContext {
  target: NotifyTarget
  /** The marker's digest of `target.findings`. */
  digest: string
  threshold: Severity
  /** The rules' metadata, by id. */
  rules: ReadonlyMap<string, RuleMeta>
  /** When the settings were read (ISO 8601). */
  asOf: string
}

function asOfText(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso)
  return match ? `${match[1]} ${match[2]} UTC` : inertMarkdown(iso)
}

function subjectOf(target: NotifyTarget): string {
  return target.scope.kind === 'server' ? 'the server-wide settings (roles, administration, security)' : `the settings of project ${inertMarkdown(target.project.path)}`
}

const KEEPING =
  '_This issue is kept by `onedev-audit notify`: it is updated when the findings change (and only then), closed when none is left, and reopened if they come back. ' +
  'Edits of this description are replaced at the next change. To accept a finding, suppress it in the audit\'s configuration with a justification._'

/** Findings by rule, each rule's group in the order of its most severe finding, then by rule id. */
function byRule(findings: readonly Finding[]): Array<{ruleId: string; findings: Finding[]}> {
  const groups = new Map<string, Finding[]>()
  for (const finding of findings) {
    const group = groups.get(finding.ruleId)
    if (group) group.push(finding)
    else groups.set(finding.ruleId, [finding])
  }
  const worst = (group: Finding[]) => Math.min(...group.map((f) => SEVERITIES.indexOf(f.severity)))
  return [...groups]
    .map(([ruleId, group]) => ({ruleId, findings: [...group].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity))}))
    .sort((a, b) => worst(a.findings) - worst(b.findings) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0))
}

function ruleSection(context: DescriptionContext, ruleId: string, findings: Finding[], listed: number): string[] {
  const meta = context.rules.get(ruleId)
  const worst = findings[0]!.severity
  const lines = [`### ${SEVERITY_WORD[worst]}: ${inertMarkdown(meta?.shortDescription ?? ruleId)}`, '', `Rule ${codeSpan(ruleId)}, ${plural(findings.length, 'finding')}:`, '']
  for (const finding of findings.slice(0, listed)) lines.push(`- **${finding.severity}**: ${inertMarkdown(finding.message)}`)
  if (findings.length > listed) lines.push(listed === 0 ? "- (too many to list here: the audit's report lists them)" : `- and ${findings.length - listed} more (the audit's report lists every one)`)
  lines.push('')
  const advice = meta ? fixAdvice(meta.help) : null
  lines.push(advice ? `**What to do.** ${advice}` : `**What to do.** See ${codeSpan(`onedev-audit rules show ${ruleId}`)}.`)
  if (meta?.fix && context.target.scope.kind === 'project') {
    lines.push('', `Plan the change with ${codeSpan(`onedev-audit fix --project ${context.target.project.id} --rule ${ruleId}`)}, review it, then apply it with \`--apply\`.`)
  }
  lines.push('')
  return lines
}

function render(context: DescriptionContext, listed: number): string {
  const {target} = context
  const groups = byRule(target.findings)
  const head = [
    formatMarker({scope: target.scope, findings: context.digest}),
    '',
    `**onedev-audit** found ${plural(target.findings.length, 'finding')} of severity **${context.threshold}** or above in ${subjectOf(target)}, in ${plural(groups.length, 'rule')}, as of ${asOfText(context.asOf)}.`,
    '',
    KEEPING,
    '',
  ]
  return [...head, ...groups.flatMap((group) => ruleSection(context, group.ruleId, group.findings, listed))].join('\n').trimEnd() + '\n'
}

/** The description of an issue listing the target's findings, listing fewer per rule until it fits MAX_DESCRIPTION_CHARS. */
export function issueDescription(context: DescriptionContext): string {
  let text = ''
  for (const listed of LISTED_PER_RULE) {
    text = render(context, listed)
    if (text.length <= MAX_DESCRIPTION_CHARS) return text
  }
  return text
}

/** The description of an issue whose findings are all gone, written before it is closed. */
export function allClearDescription(context: Omit<DescriptionContext, 'rules'>): string {
  return [
    formatMarker({scope: context.target.scope, findings: context.digest}),
    '',
    `**onedev-audit** finds no finding of severity **${context.threshold}** or above left in ${subjectOf(context.target)}, as of ${asOfText(context.asOf)}.`,
    '',
    KEEPING,
    '',
  ].join('\n')
}

/** The comment of a transition (OneDev shows it in the issue's activities). */
export function transitionComment(kind: 'close' | 'reopen', count: number, threshold: Severity): string {
  return kind === 'close'
    ? `Closed by onedev-audit notify: no finding of severity ${threshold} or above is left.`
    : `Reopened by onedev-audit notify: ${plural(count, 'finding')} of severity ${threshold} or above.`
}

/** The comment of the transition that closes a duplicate of notify's issue; `kept`: the issue kept (`#7`, one of notify's own). */
export function duplicateComment(kept: string): string {
  return `Closed by onedev-audit notify as a duplicate of ${kept}: two runs opened an issue for the same findings at once, and ${kept} is the one kept up to date.`
}
