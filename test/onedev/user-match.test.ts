import {describe, expect, it} from 'vitest'

import {
  appliesTo,
  describePrincipal,
  namedPrincipals,
  parseUserMatch,
  type Principal,
  samePrincipal,
  tryParseUserMatch,
  UserMatchSyntaxError,
} from '../../src/onedev/user-match.js'

const others: Principal = {kind: 'others'}
const alice: Principal = {kind: 'user', name: 'alice'}
const bots: Principal = {kind: 'group', name: 'release-bots'}

describe('parseUserMatch', () => {
  it.each([
    ['anyone', {criteria: [{kind: 'anyone'}], exceptions: []}],
    ['user(alice) or group(devs)', {criteria: [{kind: 'user', name: 'alice'}, {kind: 'group', name: 'devs'}], exceptions: []}],
    [
      'anyone except group(release-managers) and user(bot)',
      {criteria: [{kind: 'anyone'}], exceptions: [{kind: 'group', name: 'release-managers'}, {kind: 'user', name: 'bot'}]},
    ],
    ['  anyone   except   user(bot)  ', {criteria: [{kind: 'anyone'}], exceptions: [{kind: 'user', name: 'bot'}]}],
    ['group(a\\(b\\))', {criteria: [{kind: 'group', name: 'a(b)'}], exceptions: []}],
    ['group(my team)', {criteria: [{kind: 'group', name: 'my team'}], exceptions: []}],
    ['user(or)', {criteria: [{kind: 'user', name: 'or'}], exceptions: []}],
  ])('%j', (text, expected) => {
    expect(parseUserMatch(text)).toEqual(expected)
  })

  it.each([
    ['', /expected anyone/],
    ['everyone', /unexpected character at position 1/],
    ['Anyone', /unexpected character/],
    ['user (alice)', /a name in parentheses right after "user"/],
    ['user()', /empty name/],
    ['user(alice', /unterminated/],
    ['group(a(b))', /unescaped "\("/],
    ['anyone or', /expected "or", "except" or the end/],
    ['anyone except', /expected "or", "except" or the end/],
    ['anyone except user(a) or user(b)', /expected "or", "except" or the end/],
    ['user(a) and user(b)', /expected "or", "except" or the end/],
    ['anyoneor user(a)', /expected "or", "except" or the end/],
    ['role(admin)', /expected anyone, user/],
  ])('%j is rejected', (text, message) => {
    expect(() => parseUserMatch(text)).toThrow(UserMatchSyntaxError)
    expect(() => parseUserMatch(text)).toThrow(message)
    expect(tryParseUserMatch(text)).toBeNull()
  })

  it('null means the server default anyone', () => {
    expect(tryParseUserMatch(null)).toEqual({criteria: [{kind: 'anyone'}], exceptions: []})
  })
})

describe('appliesTo', () => {
  const applies = (text: string, principal: Principal) => appliesTo(parseUserMatch(text), principal)

  it('anyone applies to everyone, anonymous users included', () => {
    expect([others, alice, bots].map((p) => applies('anyone', p))).toEqual([true, true, true])
  })
  it('except clauses take precedence', () => {
    expect(applies('anyone except group(release-bots)', bots)).toBe(false)
    expect(applies('anyone except group(release-bots)', others)).toBe(true)
    expect(applies('anyone except group(release-bots)', alice)).toBe(true)
    expect(applies('user(alice) except user(alice)', alice)).toBe(false)
  })
  it('user names compare case-insensitively, group names exactly', () => {
    expect(applies('user(Alice)', alice)).toBe(true)
    expect(applies('group(Release-Bots)', bots)).toBe(false)
  })
  it('a named user is in no named group, a group member is no named user, others are neither', () => {
    expect(applies('group(release-bots)', alice)).toBe(false)
    expect(applies('user(alice)', bots)).toBe(false)
    expect(applies('user(alice) or group(release-bots)', others)).toBe(false)
  })
})

describe('principals', () => {
  it('describePrincipal', () => {
    expect([others, alice, bots].map(describePrincipal)).toEqual(['everyone else', 'user(alice)', 'group(release-bots)'])
  })
  it('namedPrincipals lists criteria and exceptions', () => {
    expect(namedPrincipals(parseUserMatch('user(a) or anyone except group(g)'))).toEqual([
      {kind: 'user', name: 'a'},
      {kind: 'group', name: 'g'},
    ])
  })
  it('samePrincipal', () => {
    expect(samePrincipal({kind: 'user', name: 'Alice'}, alice)).toBe(true)
    expect(samePrincipal({kind: 'group', name: 'Release-Bots'}, bots)).toBe(false)
    expect(samePrincipal(others, {kind: 'others'})).toBe(true)
    expect(samePrincipal(others, alice)).toBe(false)
  })
})
