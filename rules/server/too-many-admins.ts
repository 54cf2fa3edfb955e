/**
 * More enabled administrators than the configured maximum.
 */
import {defineRule} from '../../src/engine/rule.js'
import {GROUPS_KEY} from '../../src/model/access-data.js'
import {joinPointer} from '../../src/model/pointer.js'
import {listPhrase} from '../support/protection-findings.js'

interface Options {
  maxAdministrators: number
}

export default defineRule<Options>({
  meta: {
    id: 'server/too-many-admins',
    shortDescription: 'More site administrators than allowed',
    fullDescription:
      'Counts the enabled site administrators: root and the enabled members of administrator groups. Reports when there are more than `maxAdministrators` (default 3), listing them by login name; service and AI accounts in administrator groups are named apart, since they act through access tokens.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Each administrator can read every job secret, change every protection and grant themselves anything. Every extra administrator account is another password or token that gives all of it away.',
      '',
      '## Fix',
      'In OneDev open *Administration → Groups*, review the members of each group with *Is Site Admin*, and remove those who do not need it (give them project roles instead).',
      'Service accounts rarely need to be administrators.',
      '',
      '## Example',
      '```json',
      '{"rules": {"server/too-many-admins": {"options": {"maxAdministrators": 5}}}}',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege'],
    scope: 'server',
    requires: ['/groups', '/groups/{id}/memberships', '/users', '/users/{id}'],
    optionsSchema: {
      type: 'object',
      properties: {maxAdministrators: {type: 'integer', minimum: 1, description: 'How many enabled administrators are fine.'}},
      additionalProperties: false,
    },
    defaultOptions: {maxAdministrators: 3},
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model, options} = context
    const admins = context.facts.access.administrators
    if (!admins) return []
    const max = typeof options.maxAdministrators === 'number' ? options.maxAdministrators : 3
    if (admins.length <= max) return []
    const people = admins.filter((a) => a.user.type === 'ORDINARY').map((a) => a.user.name)
    const machines = admins.filter((a) => a.user.type !== 'ORDINARY').map((a) => `${a.user.name} (${a.user.type.toLowerCase()} account)`)
    return [
      {
        subject: 'administrators',
        pointer: model.serverData && Object.prototype.hasOwnProperty.call(model.serverData, GROUPS_KEY) ? joinPointer('', GROUPS_KEY) : '',
        message:
          `There are ${admins.length} enabled site administrators, more than the ${max} allowed: ${listPhrase(people)}` +
          (machines.length > 0 ? `; service and AI accounts in administrator groups: ${listPhrase(machines)}` : '') +
          '. Remove those who do not need it from administrator groups in Administration > Groups.',
      },
    ]
  },
})
