/**
 * The HTML report as text: its policy allows exactly its own style sheet and script, it refers to
 * no other file or host, and server strings are escaped for each place they go (markup, attributes,
 * the JSON data the script reads). What it looks like and does in a browser: html-browser.test.ts.
 */
import {createHash} from 'node:crypto'

import {describe, expect, test} from 'vitest'

import {textOf} from '../../src/report/chunks.js'
import {diffHtmlChunks} from '../../src/report/diff-html.js'
import {escapeHtml, scriptJson} from '../../src/report/html-page.js'
import {htmlChunks, ruleFamily} from '../../src/report/html.js'
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
    expect(text).toMatch(/<p class="verdict">.*some checks not evaluated\)\.<\/p>/)
    // --verbose: one by one, nothing to unfold.
    const verbose = textOf(htmlChunks(sampleInput({notices, errors: [], verbose: true})))
    expect(verbose).not.toContain('Every notice, one by one')
    expect(verbose).toContain('GET /settings/security: not offered')
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
