/**
 * The HTML report as text: its policy allows exactly its own style sheet and script, it refers to
 * no other file or host, and server strings are escaped for each place they go (markup, attributes,
 * the JSON data the script reads). What it looks like and does in a browser: html-browser.test.ts.
 */
import {createHash} from 'node:crypto'

import {describe, expect, test} from 'vitest'

import {textOf} from '../../src/report/chunks.js'
import {diffHtmlChunks} from '../../src/report/diff-html.js'
import {codeHtml, escapeHtml, scriptJson} from '../../src/report/html-page.js'
import {htmlChunks, ruleFamily, topRisks} from '../../src/report/html.js'
import {finding, sampleInput} from './sample-input.js'

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror=alert(2)>"'&\u2028\u2029\u001b[2J\u202e`

const hostileInput = () =>
  sampleInput({
    findings: [finding({ruleId: `plugin/${HOSTILE}`, severity: 'high', subject: HOSTILE, pointer: '/x', project: {id: 7, path: `acme/${HOSTILE}`}, message: `Message about ${HOSTILE}`})],
    source: {kind: 'snapshot', snapshot: `snap-${HOSTILE}.json`, server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}},
  })

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/** The page's executable scripts, data blocks and style sheets, by a plain reading of the markup. */
function parts(page: string) {
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
  const data = [...page.matchAll(/<script type="application\/json" id="data-[a-z-]+">([\s\S]*?)<\/script>/g)].map((m) => m[1]!)
  const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!)
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1]
  return {scripts, data, styles, policy, scriptTags: page.match(/<script\b/g)?.length ?? 0}
}

describe('the HTML report', () => {
  test.each([
    ['scan', () => textOf(htmlChunks(hostileInput()))],
    ['diff', () => textOf(diffHtmlChunks({tool: {name: 'onedev-audit', version: 'test'}, generatedAt: '2026-11-22T10:00:00.000Z', old: {server: null, snapshot: HOSTILE}, new: {server: null, snapshot: 'b.json'}, result: {changes: [], findings: {new: [], fixed: [], unchanged: []}, errors: [], notices: [{kind: 'warning', message: HOSTILE}]}, rules: [], locations: {}}))],
  ])('%s: one script and one style sheet, allowed by their hashes and nothing else; no other file or host', (_, page) => {
    const text = page()
    const {scripts, data, styles, policy, scriptTags} = parts(text)
    expect(scripts).toHaveLength(1)
    expect(styles).toHaveLength(1)
    expect(scriptTags).toBe(1 + data.length)
    expect(policy).toBe(`default-src 'none'; style-src ${sha256(styles[0]!)}; script-src ${sha256(scripts[0]!)}; base-uri 'none'; form-action 'none'`)
    // Nothing to load: no src, no link, and every href is a fragment of the page.
    expect(text).not.toMatch(/<[a-z][^>]*\ssrc=|<link\b|<iframe\b|<object\b|<embed\b|@import|url\(/i)
    expect([...text.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]).filter((href) => !href!.startsWith('#'))).toEqual([])
    // No server string as markup: the hostile text appears only escaped.
    expect(text).not.toContain('<img')
    expect(text).not.toContain('alert(1)</script>')
    expect(text).not.toMatch(/[\u2028\u2029\u001b\u202e]/)
    for (const block of data) expect(() => JSON.parse(block)).not.toThrow()
  })

  test('server strings: entities in the markup, \\u escapes in the data, control characters shown as escapes', () => {
    const text = textOf(htmlChunks(hostileInput()))
    expect(text).toContain('<td class="where">acme/&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;\\u2028\\u2029\\x1b[2J\\u202e</td>')
    expect(text).toContain('<dt>Snapshot</dt><dd>snap-&lt;/script&gt;')
    const findings = JSON.parse(parts(text).data[0]!) as {columns: {dict?: string[]}[]; rows: unknown[][]}
    expect(findings.columns[2]!.dict).toEqual([`acme/</script><script>alert(1)</script><img src=x onerror=alert(2)>"'&\\u2028\\u2029\\x1b[2J\\u202e`])
    expect(findings.rows[0]![3]).toBe(`</script><script>alert(1)</script><img src=x onerror=alert(2)>"'&\\u2028\\u2029\\x1b[2J\\u202e`)
  })

  test('not-evaluated notices grouped by family of checks as on the console, every one of them a click away, and the verdict says so', () => {
    const notices = [
      {kind: 'not-evaluated' as const, message: 'GET /settings/security: not offered', group: {families: ['server hardening' as const], reason: 'not offered' as const}},
      {kind: 'not-evaluated' as const, message: 'GET /groups: not offered <b>', group: {families: ['access model' as const, 'server hardening' as const], reason: 'not offered' as const}},
      {kind: 'suppression-unused' as const, message: 'suppression of x/y matched nothing'},
    ]
    const text = textOf(htmlChunks(sampleInput({notices, errors: []})))
    const panel = /<section class="problems notices" id="notices">([\s\S]*?)<\/section>/.exec(text)![1]!
    expect(panel).toContain('some checks were not evaluated, so none of them passed')
    expect(panel).toContain('<li>access model: 1 endpoint the server does not offer</li><li>server hardening: 2 endpoints the server does not offer</li>')
    expect(panel).toContain('suppression of x/y matched nothing')
    expect(panel).toContain('<summary>Every notice, one by one (3)</summary>')
    expect(panel).toContain('GET /groups: not offered &lt;b&gt;')
    expect(text).toMatch(/<p class="verdict">Audit complete: .*some checks not evaluated\.<\/p>/)
    // --verbose: one by one, nothing to unfold.
    const verbose = textOf(htmlChunks(sampleInput({notices, errors: [], verbose: true})))
    expect(verbose).not.toContain('Every notice, one by one')
    expect(verbose).toContain('GET /settings/security: not offered')
  })

  test('the badge says how bad and how complete: never "Audit complete" in green beside critical findings', () => {
    const badge = (text: string) => /<(?:a|span) class="status (tone-[a-z]+)"(?: href="([^"]*)")?>([^<]*)</.exec(text)!.slice(1)
    // The sample: 1 critical of 5 findings, and an error: incomplete first.
    expect(badge(textOf(htmlChunks(sampleInput())))).toEqual(['tone-bad', '#errors', 'Audit incomplete: 1 error'])
    expect(badge(textOf(htmlChunks(sampleInput({errors: []}))))).toEqual(['tone-bad', '#top-risks', '1 critical of 5 findings'])
    const medium = [finding({ruleId: 'a/b', severity: 'medium', subject: 's', pointer: '/x'})]
    expect(badge(textOf(htmlChunks(sampleInput({errors: [], findings: medium}))))).toEqual(['tone-warn', '#top-risks', '1 medium finding'])
    expect(badge(textOf(htmlChunks(sampleInput({errors: [], findings: [], notices: [], suppressed: []}))))).toEqual(['tone-good', undefined, 'No findings'])
    // The sample's baseline left a known finding out: nothing new, never "No findings".
    expect(badge(textOf(htmlChunks(sampleInput({errors: [], findings: [], notices: []}))))).toEqual(['tone-good', undefined, 'No new findings'])
    for (const input of [sampleInput(), sampleInput({errors: []})]) expect(textOf(htmlChunks(input))).not.toContain('Audit complete<')
  })

  test('the top: the verdict, then what could not be read, then the top risks, then the rest', () => {
    const text = textOf(htmlChunks(sampleInput()))
    const at = (marker: string) => {
      const index = text.indexOf(marker)
      expect(index, marker).toBeGreaterThan(0)
      return index
    }
    const order = ['id="verdict"', 'id="errors"', 'id="top-risks"', 'id="notices"', 'id="about"', 'id="summary"', 'id="findings"'].map(at)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(/<section class="verdict-box tone-bad" id="verdict">\n<p class="headline">([^<]*)<\/p>\n<p class="verdict">([^<]*)<\/p>/.exec(text)!.slice(1)).toEqual([
      'Audit incomplete: 1 error',
      'Judged 3 projects and 10 roles: 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline. What could not be read is listed right below: what follows is not the whole answer.',
    ])
  })

  test('top risks: the most severe finding of each rule, most severe first, with how many more the rule found', () => {
    const of = (ruleId: string, severity: 'critical' | 'high' | 'low', n: number) => finding({ruleId, severity, subject: `s${n}`, pointer: '/x', project: {id: n, path: `p/${n}`}})
    const findings = [of('a/one', 'critical', 1), of('a/one', 'critical', 2), of('a/one', 'high', 3), of('b/two', 'high', 4), of('c/three', 'low', 5), of('d/four', 'low', 6), of('e/five', 'low', 7), of('f/six', 'low', 8)]
    expect(topRisks(findings).map(({finding: f, more}) => [f.ruleId, f.subject, more])).toEqual([
      ['a/one', 's1', 2],
      ['b/two', 's4', 0],
      ['c/three', 's5', 0],
      ['d/four', 's6', 0],
      ['e/five', 's7', 0],
    ])
    const text = textOf(htmlChunks(sampleInput({findings, errors: []})))
    const risks = /<ol class="risks">\n([\s\S]*?)\n<\/ol>/.exec(text)![1]!.split('\n')
    expect(risks).toHaveLength(5)
    expect(risks[0]).toContain('<span class="where">p/1<span class="mono">a/one</span><span class="more">and 2 more of this rule</span></span>')
  })

  test('messages show Markdown code spans as code, never the backticks; server text inside them stays text', () => {
    expect(codeHtml('its authorization `on branch "**"` admits `<b>`, a lone ` stays')).toBe(
      'its authorization <code>on branch &quot;**&quot;</code> admits <code>&lt;b&gt;</code>, a lone ` stays',
    )
    expect(codeHtml('no code here')).toBe('no code here')
    const message = 'Job secret "x": its authorization `on branch "**"` admits builds on branches anyone can create.'
    const text = textOf(htmlChunks(sampleInput({errors: [], findings: [finding({ruleId: 'job-secret/broad-branches', severity: 'high', subject: 'x', pointer: '/x', message})]})))
    // In the top risks and in the findings table's HTML rows; the script renders its rows the same way (html-browser.test.ts).
    expect(text.split('<code>on branch &quot;**&quot;</code> admits builds').length - 1).toBe(2)
    expect(text.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('`on branch')
    expect(JSON.parse(parts(text).data[0]!).columns[4]).toEqual({kind: 'text', code: true, className: 'msg'})
  })

  test('scriptJson: nothing inside can end the block, and it reads back as the same value', () => {
    const value = {a: HOSTILE, b: ['<!--', '-->', '<\/script >']}
    const text = scriptJson(value)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(value)
  })

  test('escapeHtml: safe in text and in quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;')
  })

  test('rule families: the part before the first slash', () => {
    expect(ruleFamily('branch-protection/force-push-allowed')).toBe('branch-protection')
    expect(ruleFamily('my-plugin-rule')).toBe('my-plugin-rule')
  })
})
