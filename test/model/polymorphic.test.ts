import {describe, expect, it} from 'vitest'

import {authenticatorOf, jobExecutorsOf} from '../../src/model/admin-data.js'
import {simpleTypeName, typeOf} from '../../src/model/polymorphic.js'
import {unreadableServerData} from '../../src/model/server-data-check.js'
import {serverModel} from '../rules/server/helpers.js'

describe('the type of a polymorphic value, as OneDev\'s Jackson writes it', () => {
  it.each([
    // @JsonTypeInfo(use=Id.CLASS) on Authenticator (v16.5.6 Authenticator.java:14): the full name.
    [{'@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator'}, 'LdapAuthenticator'],
    // Default typing (ObjectMapperProvider.java:120-121: Id.NAME, property @type): the simple name.
    [{'@type': 'ServerShellExecutor'}, 'ServerShellExecutor'],
    // The class annotation first.
    [{'@class': 'a.b.Klass', '@type': 'Other'}, 'Klass'],
    [{'@class': '', '@type': 'Other'}, 'Other'],
    [{'@type': 'io.onedev.x.Outer$Inner'}, 'Outer$Inner'],
    [{'@type': 42}, null],
    [{type: 'X'}, null],
    [null, null],
    ['LdapAuthenticator', null],
  ])('%j → %j', (value, type) => {
    expect(typeOf(value)).toBe(type)
  })

  it('reads no inherited property', () => {
    expect(typeOf(Object.create({'@type': 'Inherited'}))).toBeNull()
    expect(simpleTypeName('  ')).toBeNull()
  })
})

describe('the administration views read either property', () => {
  it('the authenticator as GET /settings/authenticator answers it (@class) is read, and judged', () => {
    const model = serverModel({'/settings/authenticator': {'@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator', ldapUrl: 'ldap://x', groupRetrieval: {'@type': 'GetGroupsUsingAttribute'}}})
    expect(authenticatorOf(model)).toEqual({pointer: '/settings~1authenticator', type: 'LdapAuthenticator', ldapUrl: 'ldap://x', groupRetrieval: 'GetGroupsUsingAttribute'})
    expect(unreadableServerData(model.serverData)).toEqual([])
  })

  it('a value that says no type is not read, and the report says so', () => {
    const model = serverModel({'/settings/authenticator': {ldapUrl: 'ldap://x'}, '/settings/job-executors': [{name: 'untyped', enabled: true}, {'@type': 'ServerDockerExecutor', name: 'docker'}]})
    expect(authenticatorOf(model)).toBeUndefined()
    expect(jobExecutorsOf(model)?.map((e) => e.name)).toEqual(['docker'])
    expect(unreadableServerData(model.serverData)).toEqual([
      {key: 'settings/authenticator', extent: 'whole', unreadable: 1, total: 1},
      {key: 'settings/job-executors', extent: 'items', unreadable: 1, total: 2},
    ])
  })
})
