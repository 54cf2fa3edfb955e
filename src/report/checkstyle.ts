/**
 * Checkstyle XML for OneDev's Checkstyle Report step (server-plugin-report-checkstyle,
 * PublishCheckstyleReportStep), which shows each `<error>` as a code problem on its line of the
 * build's commit and charts the counts across builds.
 *
 * What OneDev reads: each `<file name>` is resolved to a file of the build's commit (relative names
 * from the job's working directory); every child element of a file must carry `line` (an integer) and
 * `severity` (`error` → HIGH, `warning` → MEDIUM, anything else LOW); `column` is optional; the
 * problem's text is `source + ": " + message`, HTML-escaped by OneDev itself (so only XML escaping
 * here). A file that does not resolve is dropped by OneDev with a warning in the build log.
 *
 * One `<file>` per snapshot file with findings (the files `collect --output-dir` writes: findings
 * already carry their line, computed once in locate.ts), named from the snapshot folder as given to
 * `scan --snapshot`, files by name and errors by line. Findings that point at no file of their own
 * (server-wide data, a finding without a location) go to server.json, or to the index snapshot.json
 * when the folder has no server.json: none is dropped.
 */
import {INDEX_FILE, SERVER_DATA_FILE} from '../snapshot/layout.js'
import type {ReportChunks} from './chunks.js'
import type {ReportInput} from './input.js'
import {createLocator, SNAPSHOT_ROOT} from './locate.js'
import {resultMessage} from './sarif.js'
import type {Finding, Severity} from '../types/report-types.js'
import {incompleteLead, judgedPhrase, scopePhrase} from './summary.js'
import {XML_DECLARATION, xmlAttributes} from './xml.js'

export const CHECKSTYLE_SEVERITY: Record<Severity, 'error' | 'warning' | 'info'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'info',
  info: 'info',
}

interface Problem {
  finding: Finding
  line: number
  column: number
}

/** `root/file`, or the file alone when the root is the working directory. */
function joined(root: string, file: string): string {
  return root === '' || root === '.' ? file : `${root.replace(/\/+$/, '')}/${file}`
}

/** The problems of each file, by the file's name in the report. */
function problemsByFile(input: ReportInput): Map<string, Problem[]> {
  const root = input.snapshotRoot ?? SNAPSHOT_ROOT
  const locate = createLocator(input.locations)
  const files = new Map<string, Problem[]>()
  for (const finding of input.findings) {
    const location = locate(finding)
    let file = location.snapshotFile
    let {line, column} = location
    if (file === SERVER_DATA_FILE && input.locations?.serverData === undefined) {
      file = INDEX_FILE
      line = 1
      column = 1
    }
    const name = file === undefined ? (finding.file ?? INDEX_FILE) : joined(root, file)
    const problems = files.get(name)
    const problem = {finding, line, column}
    if (problems) problems.push(problem)
    else files.set(name, [problem])
  }
  return files
}

/** The source of the problem that says an audit is incomplete (not a rule: no rule found it). */
export const INCOMPLETE_SOURCE = 'onedev-audit/audit-incomplete'

/**
 * An incomplete audit's problem, first on line 1 of the snapshot's index: OneDev shows code problems
 * and charts their count, so fewer problems must never be all that an audit that could not judge
 * everything says (the errors are on stderr and in the other formats).
 */
function incompleteProblem(input: ReportInput): string | null {
  const lead = incompleteLead(input)
  if (lead === null) return null
  const message = `${lead}: ${judgedPhrase(input, scopePhrase(input))}. What it could not judge is not among these problems (the errors are in the scan's output)`
  return `    <error${xmlAttributes({line: 1, column: 1, severity: 'error', message, source: INCOMPLETE_SOURCE})}/>\n`
}

function* checkstyleText(input: ReportInput, files: Map<string, Problem[]>): Generator<string, void, undefined> {
  yield `${XML_DECLARATION}<checkstyle${xmlAttributes({version: `${input.tool.name} ${input.tool.version}`})}>\n`
  const index = joined(input.snapshotRoot ?? SNAPSHOT_ROOT, INDEX_FILE)
  const incomplete = incompleteProblem(input)
  if (incomplete !== null && !files.has(index)) files.set(index, [])
  const names = [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const name of names) {
    // Stable: findings on one line keep the engine's order (most severe first).
    const problems = files.get(name)!.sort((a, b) => a.line - b.line || a.column - b.column)
    let text = `  <file${xmlAttributes({name})}>\n`
    if (name === index && incomplete !== null) text += incomplete
    for (const {finding, line, column} of problems) {
      const attributes = {line, column, severity: CHECKSTYLE_SEVERITY[finding.severity], message: resultMessage(finding), source: finding.ruleId}
      text += `    <error${xmlAttributes(attributes)}/>\n`
    }
    yield `${text}  </file>\n`
  }
  yield '</checkstyle>\n'
}

/** The report in pieces (one per file), and a warning when OneDev could not resolve the names. */
export function checkstyleChunks(input: ReportInput): ReportChunks {
  const files = problemsByFile(input)
  const root = input.snapshotRoot ?? SNAPSHOT_ROOT
  const warnings =
    root === '..' || root.startsWith('../') || root.startsWith('/')
      ? [`the snapshot folder ${root} is outside the working directory: OneDev resolves the file names of a Checkstyle report from the job's working directory, so run the scan there (or give it a folder inside it)`]
      : []
  return {chunks: checkstyleText(input, files), warnings}
}
