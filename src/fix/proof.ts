/**
 * What the findings say about a change: the same judgement when a plan is made (on the redacted
 * settings) and when it is verified (on what the server sends back).
 */
import {compareFindings} from '../engine/evaluate.js'
import {type Finding, SEVERITIES} from '../engine/rule.js'

export interface FindingsVerdict {
  cleared: Finding[]
  /** Reported after the change and not before, where a cleared finding stood for them. */
  revealed: Finding[]
}

/** Items a change adds: list items (by pointer) in the own setting of `holder`. */
export interface AddedItems {
  holder: number
  paths: readonly string[]
}

/**
 * The change proves out when every finding of `mustClear` (fingerprints) is gone and every finding it
 * makes appear is explained by the change itself: about an item the change adds (a branch with no
 * protection is reported as unprotected and nothing else; once the new protection is there, that it
 * asks for no reviewers can be said), or the same finding as one it clears, keyed anew (the same rule
 * on the same subject in the same project, no more severe: a URL moved to https:// changes the
 * fingerprint of a finding about that URL). A finding of another rule, even about the same branch
 * (a protection disabled alongside the one fixed makes the branch unprotected), another subject or
 * project, or one of the project's existing items is a reason not to make the change. Reasons are in
 * words: a finding's message names only what the audit shows anyway.
 */
export function judgeChange(before: readonly Finding[], after: readonly Finding[], mustClear: Iterable<string>, added?: AddedItems): FindingsVerdict | {reason: string} {
  const beforeIds = new Set(before.map((f) => f.fingerprint))
  const afterById = new Map(after.map((f) => [f.fingerprint, f]))
  for (const fingerprint of mustClear) {
    const still = afterById.get(fingerprint)
    if (still) return {reason: `${still.ruleId} on "${still.subject}" is still reported (${still.message})`}
  }
  const cleared = before.filter((f) => !afterById.has(f.fingerprint))
  const fresh = after.filter((f) => !beforeIds.has(f.fingerprint))
  const rank = (f: Finding) => SEVERITIES.indexOf(f.severity)
  const keyedAnew = (f: Finding) => cleared.some((c) => c.ruleId === f.ruleId && c.project?.id === f.project?.id && c.subject === f.subject && rank(f) >= rank(c))
  const aboutAdded = (f: Finding) =>
    added !== undefined &&
    f.document === undefined &&
    (f.source?.id ?? f.project?.id) === added.holder &&
    added.paths.some((path) => f.pointer === path || f.pointer.startsWith(`${path}/`))
  const unexplained = fresh.find((f) => !keyedAnew(f) && !aboutAdded(f))
  if (unexplained) return {reason: `it makes ${unexplained.ruleId} report "${unexplained.subject}" (${unexplained.message})`}
  return {cleared: [...cleared].sort(compareFindings), revealed: [...fresh].sort(compareFindings)}
}
