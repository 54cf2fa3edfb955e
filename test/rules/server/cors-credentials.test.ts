import rule from '../../../rules/server/cors-credentials.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const cors = (origins: unknown[], serverUrl: string | null = 'https://onedev.acme.example') =>
  serverModel({
    '/settings/security': {enableAnonymousAccess: false, corsAllowedOrigins: origins, passwordPolicy: null},
    ...(serverUrl === null ? {} : {'/settings/system': {serverUrl}}),
  })

ruleTester(rule, {
  valid: [
    {name: 'security setting not read', model: serverModel({'/settings/system': {serverUrl: 'https://onedev.acme.example'}})},
    {name: 'no origin (a server before 10.1 has no key)', model: cors([])},
    {name: 'https origins under the server\'s domain', model: cors(['https://portal.acme.example', 'https://acme.example', 'https://a.b.acme.example:8443'])},
    {name: 'without the server URL a foreign host cannot be told', model: cors(['https://tools.partner.example'], null)},
    {name: '"*" is not a wildcard for OneDev: it matches no browser origin', model: cors(['*'])},
  ],
  invalid: [
    {
      name: 'http, null and a foreign host',
      model: cors(['https://portal.acme.example', 'http://legacy.acme.example', 'null', 'https://tools.partner.example', 'https://acme.example.evil.example']),
      findings: [
        {severity: 'medium', pointer: '/settings~1security/corsAllowedOrigins/1', messageIncludes: ['plain http://', 'Administration > Security Settings']},
        {pointer: '/settings~1security/corsAllowedOrigins/4', messageIncludes: 'not under the server\'s own domain'},
        {pointer: '/settings~1security/corsAllowedOrigins/3', messageIncludes: 'not under the server\'s own domain'},
        {subject: 'null', pointer: '/settings~1security/corsAllowedOrigins/2', messageIncludes: 'any web page can claim it'},
      ],
    },
    {
      name: 'plain http and null are judged without the server URL',
      model: cors(['http://portal.acme.example', 'NULL'], null),
      findings: [{subject: 'NULL', pointer: '/settings~1security/corsAllowedOrigins/1'}, {pointer: '/settings~1security/corsAllowedOrigins/0'}],
    },
  ],
})
