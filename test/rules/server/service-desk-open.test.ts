import rule from '../../../rules/server/service-desk-open.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCreation16, issueCreation8, senderAuthorization8, serviceDesk16, serviceDesk8} from '../../helpers/server-payloads.js'
import {serverModel} from './helpers.js'

const desk = (value: unknown) => serverModel({'/settings/service-desk': value})

ruleTester(rule, {
  valid: [
    {name: '16.x: limited to one project, confidential', model: desk(serviceDesk16(issueCreation16('support', true)))},
    {name: '16.x: one project, not confidential (it names the project that takes outsiders\' mail)', model: desk(serviceDesk16(issueCreation16('support', false)))},
    {name: '16.x: any project, confidential', model: desk(serviceDesk16(issueCreation16(null, true)))},
    {name: '16.x: an earlier confidential entry for every project decides first', model: desk(serviceDesk16(issueCreation16('**', true), issueCreation16(null, false)))},
    {name: '16.x: no entry (issue creation refused for every project)', model: desk(serviceDesk16())},
    {name: 'service desk not enabled (204)', model: desk(null)},
    {name: 'not read', model: serverModel({})},
    {name: '8.0.0: no sender authorization: a sender without an account opens nothing', model: desk(serviceDesk8([], issueCreation8(null, null, false)))},
    {name: '8.0.0: outsiders authorized for named projects only', model: desk(serviceDesk8([senderAuthorization8(null, 'support')], issueCreation8(null, null, false)))},
    {name: '8.0.0: only senders of one domain', model: desk(serviceDesk8([senderAuthorization8('*@acme.example', null)], issueCreation8('*@acme.example', null, false)))},
    {name: '8.0.0: any sender and project, confidential', model: desk(serviceDesk8([senderAuthorization8(null, null)], issueCreation8(null, null, true)))},
  ],
  invalid: [
    {
      name: '16.x: an entry for any project that opens non-confidential issues, after one for a named project',
      model: desk(serviceDesk16(issueCreation16('support', true), issueCreation16(null, false))),
      findings: [{subject: 'service desk entry for any project', severity: 'medium', pointer: '/settings~1service-desk/issueCreationSettings/1/confidential', messageIncludes: ['not confidential', 'Administration > Service Desk Settings']}],
    },
    {
      name: '16.x: "-secret/**" admits projects it does not name',
      model: desk(serviceDesk16(issueCreation16('-secret/**', false))),
      findings: [{subject: 'service desk entry for projects "-secret/**"'}],
    },
    {
      name: '8.0.0: any sender authorized for every project, entries by sender',
      model: desk(serviceDesk8([senderAuthorization8('ceo@acme.example', 'board'), senderAuthorization8(null, null)], issueCreation8('*@acme.example', null, true), issueCreation8(null, null, false))),
      findings: [{subject: 'service desk entry for any project', pointer: '/settings~1service-desk/issueCreationSettings/1/confidential'}],
    },
  ],
})
