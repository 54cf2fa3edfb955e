import rule from '../../../rules/notification/insecure-webhook.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const NOTIFICATION_POINTER = '/contributedSettings/0/notifications/0/webhookUrl'

const parentWithHttp = project({id: 10, path: 'acme', notifications: [{webhookUrl: 'http://chat.example.com/hooks/1'}], webHooks: [{postUrl: 'http://ci.internal/hook'}]})

ruleTester(rule, {
  valid: [
    {name: 'https notification and web hook', model: model({projects: [project({notifications: [{webhookUrl: 'https://hooks.slack.com/services/T/B/X'}], webHooks: [{postUrl: 'https://ci.example.com/hook'}]})]})},
    {name: 'notification without URL', model: model({projects: [project({notifications: [{webhookUrl: null}]})]})},
    {name: 'unparsable URL', model: model({projects: [project({webHooks: [{postUrl: 'not a url'}]})]})},
    {
      name: 'an un-audited parent\'s https notification',
      model: model({projects: [project({id: 11, path: 'acme/app', parentId: 10})], ancestors: [project({id: 10, path: 'acme', notifications: [{webhookUrl: 'https://chat.example.com/x'}]})]}),
    },
  ],
  invalid: [
    {
      name: 'http:// notification',
      model: model({projects: [project({id: 1, path: 'acme/app', notifications: [{channel: 'Discord', webhookUrl: 'http://chat.example.com/api/webhooks/1'}]})]}),
      findings: [{subject: 'chat.example.com', severity: 'medium', pointer: NOTIFICATION_POINTER, messageIncludes: ['Discord notification to chat.example.com', 'clear text', 'https://']}],
    },
    {
      name: 'http:// web hook with a secret and headers',
      model: model({projects: [project({id: 1, path: 'acme/app', webHooks: [{postUrl: 'http://ci.internal:8080/hook', hasSecret: true, headerNames: ['Authorization']}]})]}),
      findings: [{subject: 'ci.internal', severity: 'medium', pointer: '/webHooks/0/postUrl', messageIncludes: 'the event payloads and its secret (sent as a request header) and 1 custom header(s) travel in clear text'}],
    },
    {
      name: 'HTTP in capitals is still http',
      model: model({projects: [project({id: 1, path: 'acme/app', webHooks: [{postUrl: 'HTTP://CI.Example.com/hook', hasSecret: false}]})]}),
      findings: [{subject: 'ci.example.com', messageIncludes: 'the event payloads travel in clear text'}],
    },
    {
      name: 'an un-audited parent\'s notification and web hook surface on the child with the parent as source',
      model: model({projects: [project({id: 11, path: 'acme/app', parentId: 10})], ancestors: [parentWithHttp]}),
      findings: [
        {subject: 'chat.example.com', projectId: 11, sourceId: 10, pointer: NOTIFICATION_POINTER, messageIncludes: '(inherited from acme)'},
        {subject: 'ci.internal', projectId: 11, sourceId: 10, pointer: '/webHooks/0/postUrl'},
      ],
    },
    {
      name: 'an audited parent\'s are reported on the parent only',
      model: model({projects: [parentWithHttp, project({id: 11, path: 'acme/app', parentId: 10})]}),
      findings: [
        {subject: 'chat.example.com', projectId: 10, sourceId: null},
        {subject: 'ci.internal', projectId: 10, sourceId: null},
      ],
    },
    {
      name: 'a child notification with the same URL overrides the un-audited parent\'s: reported once, as the child\'s',
      model: model({
        projects: [project({id: 11, path: 'acme/app', parentId: 10, notifications: [{webhookUrl: 'http://chat.example.com/hooks/1'}]})],
        ancestors: [project({id: 10, path: 'acme', notifications: [{webhookUrl: 'http://chat.example.com/hooks/1'}]})],
      }),
      findings: [{subject: 'chat.example.com', projectId: 11, sourceId: null}],
    },
    {
      name: 'the same URL on another channel does not override',
      model: model({
        projects: [project({id: 11, path: 'acme/app', parentId: 10, notifications: [{channel: 'Discord', webhookUrl: 'http://chat.example.com/hooks/1'}]})],
        ancestors: [project({id: 10, path: 'acme', notifications: [{channel: 'Slack', webhookUrl: 'http://chat.example.com/hooks/1'}]})],
      }),
      findings: [
        {subject: 'chat.example.com', sourceId: null, messageIncludes: 'Discord'},
        {subject: 'chat.example.com', sourceId: 10, messageIncludes: 'Slack'},
      ],
    },
  ],
})
