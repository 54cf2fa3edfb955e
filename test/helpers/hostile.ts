/**
 * The hostile corpus: values a server, a file or a colleague may hand the tool, in one place, read by
 * the redaction tests, the server-text tests, and the collect, fix and scan tests. Every secret in it
 * is fake and holds `CANARY` or `-7f3a` so that the canary checks (canaries.ts `findCanaries`,
 * `expectNoCanary`) find any piece of it in any output.
 *
 * One section per category, each a named export; add a new category as a new section at the end.
 *
 *   WRITE PATH           what an edited plan or undo record, or a colleague between POST and read-back,
 *                        tries to make `fix --apply` send (`WRITE_PATH`)
 */

// ------------------------------------------------------------------ WRITE PATH

/** A JSON Patch edit as a plan or undo file holds it, with what it expects to find first. */
export interface FileEdit {
  op: 'replace' | 'add' | 'remove'
  path: string
  value?: unknown
  expect: Array<{path: string; value: unknown}>
}

/**
 * Issue 25, "the write path": each edit satisfies its own expectations (it names what the setting holds
 * now), so only judging it against what the tool plans itself can refuse it.
 */
export const WRITE_PATH = {
  /** Where an edited plan points a web hook: it would receive the hook's secret and header values. `.invalid` is never a real host (RFC 2606). */
  attackerHookUrl: 'https://collector.attacker.invalid/onedev',
  /** A web hook pointed at another host, added by hand to a reviewed plan. */
  webHookElsewhere(index: number, current: string): FileEdit {
    return {op: 'replace', path: `/webHooks/${index}/postUrl`, value: WRITE_PATH.attackerHookUrl, expect: [{path: `/webHooks/${index}/postUrl`, value: current}]}
  },
  /** A protection switched off, slipped into a change that strengthens another one. */
  protectionDisabled(index: number): FileEdit {
    return {op: 'replace', path: `/branchProtections/${index}/enabled`, value: false, expect: [{path: `/branchProtections/${index}/enabled`, value: true}]}
  },
  /** A job secret authorization that lets a job of any branch read it. */
  everyBranch: 'on branch "**"',
  /** A job secret's authorization widened, as a plan's value or an undo record's restore. */
  secretOpened(index: number, current: unknown, member = 'authorization'): FileEdit {
    const path = `/buildSetting/jobSecrets/${index}/${member}`
    return {op: 'replace', path, value: WRITE_PATH.everyBranch, expect: [{path, value: current}]}
  },
  /** What a job secret is rotated to right after our POST (it must stay as the server has it, and never show). */
  rotatedSecret: 'CANARY-jobsecret-rotated-after-the-post-7f3a',
  /** A colleague's edit right after our POST: the web hook also sent on builds. */
  colleagueEdit(setting: {webHooks: Array<{eventTypes: string[]}>}): void {
    setting.webHooks[0]!.eventTypes.push('BUILD')
  },
} as const
