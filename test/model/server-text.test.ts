import {Buffer} from 'node:buffer'
import {describe, expect, test} from 'vitest'

import {REDACTED} from '../../src/model/redact.js'
import {judgeServerAnswer, MAY_QUOTE_A_SECRET, redactServerText, withheldNote} from '../../src/model/server-text.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {MULTI_LINE_SECRET, multiLineAnswer, serverAnswers, shortAnswers, UMLAUT_SECRET, umlautAnswers} from '../helpers/hostile.js'

/** The note a text of `text`'s length becomes when it may quote a secret. */
const withheld = (text: string) => withheldNote(Buffer.byteLength(text), true, MAY_QUOTE_A_SECRET)

describe('redactServerText', () => {
  const secret = 'Tr0ub4dor&3=horse<batt>\n  staple!'
  const base64 = Buffer.from(secret).toString('base64')
  const base64url = Buffer.from(secret).toString('base64url')
  // Each form a server could echo the secret in; the whole text is withheld, none of it is shown.
  test.each([
    ['as is', secret],
    ['URL-encoded', encodeURIComponent(secret)],
    ['JSON-escaped', JSON.stringify(secret)],
    ['HTML-escaped', 'Tr0ub4dor&amp;3=horse&lt;batt&gt;\n  staple!'],
    ['HTML numeric entities', 'Tr0ub4dor&#38;3&#x3D;horse&#60;batt&#X3e;\n  staple&#33;'],
    ['HTML named entities of every kind', 'Tr0ub4dor&amp;3&equals;horse&lt;batt&gt;\n  staple&excl;'],
    ['JSON \\u-escaped as Gson writes', 'Tr0ub4dor\\u00263\\u003dhorse\\u003cbatt\\u003e\\n  staple!'],
    ['form-encoded', 'Tr0ub4dor%263%3Dhorse%3Cbatt%3E%0A++staple%21'],
    ['whitespace collapsed', 'Tr0ub4dor&3=horse<batt> staple!'],
    ['HTML-escaped inside a JSON string', JSON.stringify('Tr0ub4dor&amp;3=horse&lt;batt&gt; staple!')],
    ['upper-cased', secret.toUpperCase()],
    ['full-width', 'Ｔｒ０ｕｂ４ｄｏｒ＆３＝ｈｏｒｓｅ＜ｂａｔｔ＞ ｓｔａｐｌｅ！'],
    ['with a zero-width space and a soft hyphen inside', 'Tr0ub4\u200bdor&3=horse<batt>\n  sta\u00adple!'],
    ['one line of it', 'Tr0ub4dor&3=horse<batt>'],
    ['base64', base64],
    ['base64 without padding', base64.replace(/=+$/, '')],
    ['base64url', base64url],
    ['base64url with padding', base64url.padEnd(base64.length, '=')],
  ])('a secret echoed %s: the whole text is withheld', (_, echoed) => {
    const text = `buildSetting.jobSecrets[0].value: "${echoed}" is not valid (Bearer abc.def-ghi)`
    expect(redactServerText(text, ['', secret])).toBe(withheld(text))
  })

  // A setting the audit never read, echoed in an error answer: its password has no token shape, and no secret of it is known.
  test.each([
    ['a JSON member', '{"smtpHost":"mail.acme.example","smtpPassword":"Tr0ub4dor&3 horse"}'],
    ['a JSON member with spaces and escapes', 'could not save {"inboxPollSetting": {"imapPassword" : "pa\\"ss word"}}'],
    ['HTML-escaped', '<p>{&quot;clientSecret&quot;:&quot;Tr0ub4dor&amp;3 horse&quot;}</p>'],
    ['JSON-escaped inside a JSON string', JSON.stringify({message: JSON.stringify({refreshToken: 'Tr0ub4dor&3 horse'})})],
    ['an API key of an AI user', 'bad aiSetting {"modelSetting":{"apiKey":"Tr0ub4dor&3 horse"}}'],
  ])('a credential-named member quoted with its value (%s): the whole text is withheld', (_, text) => {
    expect(redactServerText(text, [])).toBe(withheld(text))
  })

  test('a bean\'s toString: a credential-named value is masked, the rest shown; an empty password or other keys are no secret', () => {
    expect(redactServerText('SmtpImapConnector{smtpHost=mail.acme.example, smtpPassword=Tr0ub4dor&3horse, timeout=60}', [])).toBe(
      `SmtpImapConnector{smtpHost=mail.acme.example, smtpPassword=${REDACTED}, timeout=60}`,
    )
    // Every assignment is looked at, not only the first of a run of them.
    expect(redactServerText('host=mail smtpPassword=Tr0ub4dor&3 horse; imapPassword = x y)', [])).toBe(`host=mail smtpPassword=${REDACTED}; imapPassword = ${REDACTED})`)
    expect(redactServerText('{"smtpPassword": "", "smtpHost": "mail.acme.example", "passwordPolicy": null}', [])).toBe('{"smtpPassword": "", "smtpHost": "mail.acme.example", "passwordPolicy": null}')
  })

  test('a secret with a plus or a percent sign is found as is and in its encodings', () => {
    const plus = 'a+b%41 c'
    for (const echoed of [plus, encodeURIComponent(plus), new URLSearchParams({v: plus}).toString().slice(2), JSON.stringify(plus)]) {
      expect(redactServerText(`value ${echoed} refused`, [plus])).toBe(withheld(`value ${echoed} refused`))
    }
  })

  test('a secret of 1-3 characters is looked for like any other: a text holding it is withheld; one without it is shown', () => {
    expect(redactServerText('the value abc is not valid', ['abc'])).toBe(withheld('the value abc is not valid'))
    expect(redactServerText('the value is not valid', ['l'])).toBe(withheld('the value is not valid'))
    expect(redactServerText('the value is not valid', ['q7', '!', 'x'])).toBe('the value is not valid')
    // A line of 1-3 characters of a longer secret is not looked for on its own; a whitespace-only secret not at all.
    expect(redactServerText('the value is not valid', ['Tr0ub4dor-long-enough\nis', ' \n '])).toBe('the value is not valid')
  })

  test('a text quoting no secret keeps its words, with what looks like a credential masked', () => {
    const text = [
      'Tr0ub4dor&3=horse<bat> staple? (a different value)',
      'Authorization: Bearer abc.def-ghi',
      'Basic dXNlcjpwYXNz',
      'token=shorttok1',
      'a long one ghp_16C7e42F292c6912E7710c838347Ae178B4a and a JWT aaaaaaaa.bbbbbbbb.cccccccc',
      'hook https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/abc failed',
      'remote git:hunter2@git.example.com:acme.git',
      'branchProtections[0].userMatch: malformed near position 12 (reviewRequirement) &amp; %41 \\u0041',
    ].join('\n')
    expect(redactServerText(text, ['Tr0ub4dor&3=horse<batt>\n  staple!', ''])).toBe(
      [
        'Tr0ub4dor&3=horse<bat> staple? (a different value)',
        `Authorization: Bearer ${REDACTED}`,
        `Basic ${REDACTED}`,
        `token=${REDACTED}`,
        `a long one ${REDACTED} and a JWT ${REDACTED}`,
        'hook https://hooks.slack.com/services/REDACTED failed',
        'remote REDACTED@git.example.com:acme.git',
        'branchProtections[0].userMatch: malformed near position 12 (reviewRequirement) &amp; %41 \\u0041',
      ].join('\n'),
    )
  })
})

describe('judgeServerAnswer: the bytes of an error answer (the hostile corpus)', () => {
  const secret = 'CANARY-audit-token-7f3a'
  const cases = [...serverAnswers(secret), ...umlautAnswers(), multiLineAnswer(), ...shortAnswers()]

  test.each(cases.map((answer) => [answer.name, answer] as const))('%s: withheld whole, with a note saying how long it was', (_, answer) => {
    const judged = judgeServerAnswer({body: answer.body, contentType: answer.contentType, complete: answer.body.length <= 65_536}, ['', answer.secret])
    expect('withheld' in judged, answer.why).toBe(true)
    const note = (judged as {withheld: string}).withheld
    expect(note).toMatch(/^\(the server's answer: (more than )?[\d,]+ bytes, not shown: .+; --debug-unsafe-server-text prints it\)$/)
    expectNoCanary(note)
  })

  test('the notes say why', () => {
    const note = (body: Buffer, contentType: string, complete = true) => (judgeServerAnswer({body, contentType, complete}, [secret]) as {withheld?: string}).withheld
    expect(note(Buffer.from('x'.repeat(65_536)), 'text/plain', false)).toBe("(the server's answer: more than 65,536 bytes, not shown: it was not read whole; --debug-unsafe-server-text prints it)")
    expect(note(Buffer.from('abc'), 'text/plain; charset=x-no-such-charset')).toBe("(the server's answer: 3 bytes, not shown: the answer's charset is not one this tool decodes; --debug-unsafe-server-text prints it)")
    expect(note(Buffer.from([0x61, 0xff, 0x62]), 'text/plain; charset=utf-8')).toBe("(the server's answer: 3 bytes, not shown: the body is not valid UTF-8; --debug-unsafe-server-text prints it)")
    expect(note(Buffer.from('ab', 'utf16le'), 'text/plain')).toBe("(the server's answer: 4 bytes, not shown: it holds NUL characters (not utf-8 text); --debug-unsafe-server-text prints it)")
    expect(note(Buffer.from(`the token ${secret} was refused`), 'text/plain')).toBe("(the server's answer: 45 bytes, not shown: it may quote a secret; --debug-unsafe-server-text prints it)")
  })

  test('a text in another charset quoting no secret is shown decoded: UTF-16LE, UTF-16BE with a byte-order mark, ISO-8859-1, a UTF-8 byte-order mark', () => {
    const shown = (body: Buffer, contentType: string) => judgeServerAnswer({body, contentType, complete: true}, [secret, UMLAUT_SECRET, MULTI_LINE_SECRET])
    const words = 'Wert für "Äpfel" ungültig'
    expect(shown(Buffer.from(words, 'utf16le'), 'text/plain; charset=UTF-16LE')).toEqual({shown: words})
    expect(shown(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(words, 'utf16le').swap16()]), 'text/plain; charset=utf-8')).toEqual({shown: words})
    expect(shown(Buffer.from(words, 'latin1'), 'text/plain;charset="iso-8859-1"')).toEqual({shown: words})
    expect(shown(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(words)]), 'text/plain')).toEqual({shown: words})
  })

  test('a withheld text is handed back decoded for --debug-unsafe-server-text, never in the note', () => {
    const body = Buffer.from(`the token ${secret} was refused`, 'utf16le')
    const judged = judgeServerAnswer({body, contentType: 'text/plain; charset=utf-16le', complete: true}, [secret])
    expect(judged).toEqual({withheld: withheldNote(body.length, true, MAY_QUOTE_A_SECRET), text: `the token ${secret} was refused`})
  })
})
