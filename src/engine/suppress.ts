/**
 * Suppressions (accepted findings in the configuration, each with a justification and an optional
 * expiry) and baselines (the fingerprints of a previous run: only new findings are reported).
 * Suppressed and baselined findings are kept with their reason; expired and unused suppressions
 * become notices.
 */
import {pathMatcher, stringMatcher} from '../onedev/matchers.js'
import type {Notice, SuppressedFinding} from '../types/report-types.js'
import {sha256Hex} from '../util/digest.js'
import {readRegularFile, writeFileAtomic} from '../util/fs.js'
import {ConfigError, describeIssues, parseJsonOrConfigError} from './config.js'
import type {Suppression} from './config-schema.js'
import type {Finding} from './rule.js'

export interface Filtered {
  findings: Finding[]
  suppressed: SuppressedFinding[]
  notices: Notice[]
}

function describeSuppression(s: Suppression, index: number): string {
  const scope = [`rule ${s.rule}`, s.project ? `project ${s.project}` : '', s.subject ? `subject ${s.subject}` : ''].filter(Boolean).join(', ')
  return `suppression #${index + 1} (${scope})`
}

export function suppressionMatches(s: Suppression, finding: Finding): boolean {
  if (!stringMatcher(s.rule, finding.ruleId)) return false
  if (s.project !== undefined && (finding.project === null || !pathMatcher(s.project, finding.project.path))) return false
  if (s.subject !== undefined && !stringMatcher(s.subject, finding.subject)) return false
  return true
}

/** `today` is the UTC date (YYYY-MM-DD); a suppression is valid through its `expires` day. */
export function applySuppressions(findings: Finding[], suppressions: Suppression[], today: string): Filtered {
  const used = new Set<number>()
  const expiredMatched = new Set<number>()
  const kept: Finding[] = []
  const suppressed: SuppressedFinding[] = []
  for (const finding of findings) {
    let reason: SuppressedFinding['reason'] | null = null
    suppressions.forEach((s, index) => {
      if (!suppressionMatches(s, finding)) return
      if (s.expires !== undefined && s.expires < today) {
        expiredMatched.add(index)
        return
      }
      used.add(index)
      reason ??= {kind: 'suppression', justification: s.justification, ...(s.expires ? {expires: s.expires} : {})}
    })
    if (reason) suppressed.push({finding, reason})
    else kept.push(finding)
  }
  const notices: Notice[] = []
  suppressions.forEach((s, index) => {
    if (s.expires !== undefined && s.expires < today) {
      const effect = expiredMatched.has(index) ? 'its findings are reported again' : 'it matched no finding either'
      notices.push({kind: 'suppression-expired', message: `${describeSuppression(s, index)} expired on ${s.expires}: ${effect}`})
    } else if (!used.has(index)) {
      notices.push({kind: 'suppression-unused', message: `${describeSuppression(s, index)} matched no finding: remove it if the problem is fixed`})
    }
  })
  return {findings: kept, suppressed, notices}
}

/**
 * 2: fingerprints name list items by what they are (version 1 named many by their position). A
 * baseline of an older version is refused: its fingerprints would silently report everything as new.
 */
export const BASELINE_VERSION = 2

/** The baseline file; read with zod (loaded then: a run without --baseline does not load it). */
export interface Baseline {
  baselineVersion: typeof BASELINE_VERSION
  findings: {fingerprint: string; ruleId: string; project: string | null; subject: string}[]
}

async function baselineSchema() {
  const {z} = await import('zod')
  return z.object({
    baselineVersion: z.literal(BASELINE_VERSION),
    findings: z.array(z.object({fingerprint: z.string().min(1), ruleId: z.string(), project: z.string().nullable(), subject: z.string()})),
  })
}

export async function readBaseline(path: string): Promise<Set<string>> {
  return (await readBaselineFile(path)).fingerprints
}

/** A baseline's fingerprints and the SHA-256 of its bytes (an attestation names the baseline by it). */
export async function readBaselineFile(path: string): Promise<{fingerprints: Set<string>; sha256: string}> {
  const read = await readBaselineBytes(path)
  if (read === null) throw new ConfigError(`${path}: cannot read the baseline (ENOENT)`)
  return {fingerprints: new Set(read.entries.map((f) => f.fingerprint)), sha256: read.sha256}
}

/** The entries of a baseline file; null when there is no file. A file that is not a current baseline is a ConfigError. */
export async function readBaselineEntries(path: string): Promise<Baseline['findings'] | null> {
  return (await readBaselineBytes(path))?.entries ?? null
}

async function readBaselineBytes(path: string): Promise<{entries: Baseline['findings']; sha256: string} | null> {
  let bytes: Buffer
  try {
    bytes = await readRegularFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new ConfigError(`${path}: cannot read the baseline (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  const json = parseJsonOrConfigError(bytes.toString('utf8'), path)
  const version = json !== null && typeof json === 'object' ? (json as Record<string, unknown>)['baselineVersion'] : undefined
  if (typeof version === 'number' && Number.isInteger(version) && version >= 1 && version < BASELINE_VERSION) {
    throw new ConfigError(`baseline ${path} was written by an older onedev-audit whose fingerprints are no longer valid: regenerate it with --update-baseline`)
  }
  const parsed = (await baselineSchema()).safeParse(json)
  if (!parsed.success) throw new ConfigError(describeIssues(path, parsed.error.issues))
  return {entries: parsed.data.findings, sha256: sha256Hex(bytes)}
}

export function applyBaseline(filtered: Filtered, fingerprints: Set<string>): Filtered {
  const findings: Finding[] = []
  const suppressed = [...filtered.suppressed]
  for (const finding of filtered.findings) {
    if (fingerprints.has(finding.fingerprint)) suppressed.push({finding, reason: {kind: 'baseline'}})
    else findings.push(finding)
  }
  return {...filtered, findings, suppressed}
}

/**
 * The baseline of a run: every finding not suppressed by the configuration, and the entries `kept`
 * from the baseline before (an incomplete audit's: what it could not judge stays known), sorted for
 * stable diffs, each fingerprint once.
 */
export function baselineOf(findings: Finding[], kept: Baseline['findings'] = []): Baseline {
  const entries = findings
    .map((f) => ({fingerprint: f.fingerprint, ruleId: f.ruleId, project: f.project?.path ?? (f.role ? `role:${f.role.name}` : null), subject: f.subject}))
    .concat(kept.map((f) => ({fingerprint: f.fingerprint, ruleId: f.ruleId, project: f.project, subject: f.subject})))
    .sort((a, b) => (a.ruleId + a.project + a.subject + a.fingerprint).localeCompare(b.ruleId + b.project + b.subject + b.fingerprint))
  const seen = new Set<string>()
  const unique = entries.filter((e) => !seen.has(e.fingerprint) && seen.add(e.fingerprint))
  return {baselineVersion: BASELINE_VERSION, findings: unique}
}

/**
 * Writes the baseline of `findings`. With `keep` (an incomplete audit: what it could not judge may
 * still be on the server), the entries of the baseline already there are kept too; returns how many of
 * them were kept. Throws ConfigError, writing nothing, when that baseline cannot be read.
 */
export async function writeBaseline(path: string, findings: Finding[], keep = false): Promise<number> {
  const fingerprints = new Set(findings.map((f) => f.fingerprint))
  const kept = keep ? ((await readBaselineEntries(path)) ?? []).filter((entry) => !fingerprints.has(entry.fingerprint)) : []
  await writeFileAtomic(path, JSON.stringify(baselineOf(findings, kept), null, 2) + '\n')
  return kept.length
}
