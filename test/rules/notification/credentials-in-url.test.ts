import rule from '../../../rules/notification/credentials-in-url.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {
      name: 'a Slack URL with its secret path alone',
      model: model({
        projects: [
          project({
            notifications: [
              {
                webhookUrl: 'https://hooks.slack.com/services/T000/B000/<redacted>',
                url: {scheme: 'https', host: 'hooks.slack.com', hadUserInfo: false, secretQueryParams: [], secretPath: true},
              },
            ],
          }),
        ],
      }),
    },
    {name: 'harmless query parameters', model: model({projects: [project({webHooks: [{postUrl: 'https://ci.example.com/hook?project=app&branch=main'}]})]})},
    {name: 'no URL facts', model: model({projects: [project({notifications: [{webhookUrl: null}]})]})},
  ],
  invalid: [
    {
      name: 'user info in a notification URL',
      model: model({projects: [project({id: 1, path: 'acme/app', notifications: [{webhookUrl: 'https://bot:pw@ntfy.example.com/alerts', channel: 'Ntfy'}]})]}),
      findings: [{subject: 'ntfy.example.com', severity: 'high', pointer: '/contributedSettings/0/notifications/0/webhookUrl', messageIncludes: ['Ntfy notification URL to ntfy.example.com carries user info (user:password@)', 'secret header']}],
    },
    {
      name: '?token= in a web hook URL',
      model: model({projects: [project({id: 1, path: 'acme/app', webHooks: [{postUrl: 'https://ci.example.com/hook?token=abc&project=app'}]})]}),
      findings: [{subject: 'ci.example.com', severity: 'high', pointer: '/webHooks/0/postUrl', messageIncludes: 'carries the query parameter "token"'}],
    },
    {
      name: 'both user info and several parameters',
      model: model({projects: [project({id: 1, path: 'acme/app', webHooks: [{postUrl: 'https://u:p@ci.example.com/hook?api_key=1&secret=2'}]})]}),
      findings: [{subject: 'ci.example.com', messageIncludes: 'carries user info (user:password@) and the query parameters "api_key", "secret"'}],
    },
    {
      name: 'a Slack URL that also carries a token parameter',
      model: model({
        projects: [
          project({
            id: 1,
            path: 'acme/app',
            notifications: [{webhookUrl: 'https://hooks.slack.com/services/x', url: {scheme: 'https', host: 'hooks.slack.com', hadUserInfo: false, secretQueryParams: ['token'], secretPath: true}}],
          }),
        ],
      }),
      findings: [{subject: 'hooks.slack.com'}],
    },
    {
      name: 'an un-audited parent\'s web hook surfaces on the child',
      model: model({
        projects: [project({id: 11, path: 'acme/app', parentId: 10})],
        ancestors: [project({id: 10, path: 'acme', webHooks: [{postUrl: 'https://ci.example.com/hook?access_token=abc'}]})],
      }),
      findings: [{subject: 'ci.example.com', projectId: 11, sourceId: 10, messageIncludes: '(inherited from acme)'}],
    },
  ],
})
