import rule from '../../../rules/webhook/missing-secret.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'web hook with a secret', model: model({projects: [project({webHooks: [{postUrl: 'https://ci.example.com/hook', hasSecret: true}]})]})},
    {name: 'no web hooks', model: model({projects: [project()]})},
    {name: 'notifications have no secret field and are not web hooks', model: model({projects: [project({notifications: [{webhookUrl: 'https://hooks.slack.com/services/T/B/X'}]})]})},
  ],
  invalid: [
    {
      name: 'web hook without a secret',
      model: model({projects: [project({id: 1, path: 'acme/app', webHooks: [{postUrl: 'https://ci.example.com/hook', hasSecret: false}]})]}),
      findings: [{subject: 'ci.example.com', severity: 'medium', pointer: '/webHooks/0/secret', messageIncludes: ['Web hook to ci.example.com has no secret', 'cannot verify']}],
    },
    {
      name: 'only the web hooks without a secret',
      model: model({
        projects: [
          project({
            id: 1,
            path: 'acme/app',
            webHooks: [
              {postUrl: 'https://a.example.com/hook', hasSecret: true},
              {postUrl: 'https://b.example.com/hook', hasSecret: false},
            ],
          }),
        ],
      }),
      findings: [{subject: 'b.example.com', pointer: '/webHooks/1/secret'}],
    },
    {
      name: 'an un-audited parent\'s web hook surfaces once on each audited child',
      model: model({
        projects: [project({id: 11, path: 'acme/a', parentId: 10}), project({id: 12, path: 'acme/b', parentId: 10})],
        ancestors: [project({id: 10, path: 'acme', webHooks: [{postUrl: 'https://ci.example.com/hook', hasSecret: false}]})],
      }),
      findings: [
        {subject: 'ci.example.com', projectId: 11, sourceId: 10, pointer: '/webHooks/0/secret', messageIncludes: '(inherited from acme)'},
        {subject: 'ci.example.com', projectId: 12, sourceId: 10},
      ],
    },
  ],
})
