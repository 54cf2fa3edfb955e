/**
 * The description of notify's issue (src/report/notify-issue.ts): server strings inert in OneDev's
 * Markdown, the marker first, what to do per rule, the fix command, and a size OneDev keeps whole.
 */
import {describe, expect, it} from 'vitest'

import type {NotifyTarget} from '../../src/engine/notify.js'
import {findingsDigest} from '../../src/engine/notify.js'
import type {Finding, RuleMeta} from '../../src/engine/rule.js'
import {parseMarker} from '../../src/model/issue.js'
import {expectInert, rendered} from '../helpers/onedev-markdown.js'
import {allClearDescription, codeSpan, fixAdvice, inertMarkdown, issueDescription, MAX_DESCRIPTION_CHARS} from '../../src/report/notify-issue.js'

/** Strings a server could send in a project path, a branch name or a message. */
const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '</script><script>alert(1)</script>',
  '@admin please look',
  'cc @org/team and @a.b-c',
  'mail alice@example.com',
  'fixes #12 and acme/app#3 and pull request #4',
  'see ACME-42 and PR-7',
  'commit 0123456789abcdef0123456789abcdef01234567 here',
  'acme/app:0123456789abcdef0123456789abcdef01234567',
  'https://evil.example/phish and http://x.y and www.evil.example',
  '[click](javascript:alert(1)) ![img](http://evil/x.png)',
  '**bold** _em_ ~~strike~~ `code` | table |',
  '$x^2$ and {+ins+} {-del-} and :::',
  '# heading\n\n- list\n> quote',
  '&amp; &#64;admin &lt;b&gt;',
  'back\\slash \\@admin \\#12',
  'line\nbreak\r\nand\ttab and \u202eRTL\u202c and \u0000nul',
  '<!-- onedev-audit:notify project=1 findings=none -->',
  '````fence````',
]

describe('inertMarkdown', () => {
  it.each(HOSTILE)('renders %j as its own text (one line, controls escaped) and nothing else', (input) => {
    const markdown = inertMarkdown(input)
    expectInert(markdown)
    // Nothing is lost: what shows is the string, on one line, with control characters as escapes.
    const shown = rendered(markdown).replace(/\u200b/g, '')
    expect(shown).toBe(input.replace(/\s+/g, ' ').trim().replace(/\u202e/g, '\\u202e').replace(/\u202c/g, '\\u202c').replace(/\u0000/g, '\\x00'))
  })

  it('leaves plain words alone', () => {
    expect(inertMarkdown('branch master of acme/app')).toBe('branch master of acme/app')
  })
})

describe('codeSpan', () => {
  it('fences with more backticks than the text holds', () => {
    expect(codeSpan('onedev-audit fix --project 2')).toBe('`onedev-audit fix --project 2`')
    expect(codeSpan('a `b` c')).toBe('``a `b` c``')
    expect(codeSpan('`x`')).toBe('`` `x` ``')
  })
})

describe('fixAdvice', () => {
  it("reads a rule's **Fix.** paragraph or its ## Fix section, and nothing else", () => {
    expect(fixAdvice('**Risk.** r\n\n**Fix.** Do this\nand that.\n\n**Example.** e')).toBe('Do this\nand that.')
    expect(fixAdvice('## Risk\nr\n\n## Fix\nStep one.\nStep two.\n\n## Example\ne')).toBe('Step one.\nStep two.')
    expect(fixAdvice('No advice here.')).toBeNull()
  })
})

const RULE: RuleMeta = {
  id: 'branch-protection/force-push-allowed',
  shortDescription: 'The branch protection that applies allows forced pushes',
  fullDescription: '',
  defaultSeverity: 'high',
  help: '**Risk.** x\n\n**Fix.** Check *Prevent Forced Push*.',
  tags: [],
  scope: 'project',
  fix: 'fix',
}
const PLUGIN: RuleMeta = {...RULE, id: 'acme/custom', shortDescription: 'A check of our own', help: 'Talk to the platform team.', fix: undefined}

function finding(n: number, message: string, ruleId = RULE.id, severity: Finding['severity'] = 'high'): Finding {
  return {ruleId, severity, message, project: {id: 2, path: 'acme/app'}, role: null, subject: `s${n}`, pointer: '', fingerprint: `fp-${ruleId}-${n}`}
}

function description(findings: Finding[], path = 'acme/app'): string {
  const target: NotifyTarget = {scope: {kind: 'project', id: 2}, project: {id: 2, path}, findings}
  return issueDescription({target, digest: findingsDigest(findings), threshold: 'high', rules: new Map([[RULE.id, RULE], [PLUGIN.id, PLUGIN]]), asOf: '2026-11-20T02:00:00.000Z'})
}

describe('issueDescription', () => {
  it('opens with the marker, then lists the findings by rule, most severe first, each rule with what to do and the fix command', () => {
    const findings = [finding(1, 'Forced pushes to "main" are allowed'), finding(2, 'Ours', PLUGIN.id, 'critical')]
    const text = description(findings)
    expect(text.split('\n')[0]).toBe(`<!-- onedev-audit:notify project=2 findings=${findingsDigest(findings)} -->`)
    expect(parseMarker(text)).toEqual({scope: {kind: 'project', id: 2}, findings: findingsDigest(findings)})
    expect(text).toContain('**onedev-audit** found 2 findings of severity **high** or above in the settings of project acme/app, in 2 rules, as of 2026-11-20 02:00 UTC.')
    expect(text.indexOf('### Critical: A check of our own')).toBeLessThan(text.indexOf('### High: The branch protection that applies allows forced pushes'))
    expect(text).toContain('- **high**: Forced pushes to "main" are allowed\n')
    expect(text).toContain('**What to do.** Check *Prevent Forced Push*.')
    expect(text).toContain('Plan the change with `onedev-audit fix --project 2 --rule branch-protection/force-push-allowed`')
    // A rule without a fix gets no fix command, and help without advice points at `rules show`.
    expect(text).toContain('**What to do.** See `onedev-audit rules show acme/custom`.')
    expect(text).not.toContain('--rule acme/custom')
  })

  it('keeps every server string inert: the path and each message', () => {
    const text = description(HOSTILE.map((message, n) => finding(n, message)), HOSTILE[0]!)
    const lines = text.split('\n')
    expect(lines.filter((line) => line.includes('<')).length).toBe(1) // the marker
    for (const line of lines.filter((l) => l.startsWith('- **high**: '))) expectInert(line.slice('- **high**: '.length))
    expect(text).toContain(`in the settings of project ${inertMarkdown(HOSTILE[0]!)},`)
    // A marker quoted in a message is no marker: the first one is notify's own.
    expect(parseMarker(text)?.scope).toEqual({kind: 'project', id: 2})
  })

  it('lists fewer findings per rule until it fits what OneDev keeps, and says how many are left out', () => {
    const many = Array.from({length: 400}, (_, n) => finding(n, `A long message about branch release/${n} `.repeat(80)))
    const text = description(many)
    expect(text.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS)
    expect(text).toContain('found 400 findings')
    expect(text).toMatch(/- and 390 more \(the audit's report lists every one\)/)
    const few = description(many.slice(0, 5))
    expect(few).not.toContain('more (the audit')
  })
})

describe('allClearDescription', () => {
  it('says that none is left, with the marker of no finding', () => {
    const target: NotifyTarget = {scope: {kind: 'server'}, project: {id: 1, path: 'ops'}, findings: []}
    const text = allClearDescription({target, digest: 'none', threshold: 'medium', asOf: '2026-11-21T03:04:05Z'})
    expect(parseMarker(text)).toEqual({scope: {kind: 'server'}, findings: 'none'})
    expect(text).toContain('finds no finding of severity **medium** or above left in the server-wide settings (roles, administration, security), as of 2026-11-21 03:04 UTC.')
  })
})
