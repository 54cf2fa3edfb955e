import rule from '../../../rules/server/ai-entitled-to-all.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {aiUser14, aiUser16} from '../../helpers/server-payloads.js'
import {serverModel} from './helpers.js'

const ADMIN = {id: 1, disabled: false, type: 'ORDINARY', name: 'admin', fullName: null, notifyOwnEvents: false, aiSetting: null}

ruleTester(rule, {
  valid: [
    {name: 'an AI user entitled to some only', model: serverModel({'/users': [ADMIN, aiUser16(7, 'assistant', false, 'k')]})},
    {name: 'a disabled AI user entitled to all', model: serverModel({'/users': [ADMIN, aiUser16(7, 'assistant', true, 'k', true)]})},
    {name: 'no AI user', model: serverModel({'/users': [ADMIN]})},
    {name: 'users not read', model: serverModel({})},
    {name: '14.x: the listing carries no AI settings (not judged: availability says so)', model: serverModel({'/users': [ADMIN, aiUser14(7, 'assistant')]})},
  ],
  invalid: [
    {
      name: '16.x: the enabled AI user entitled to all, once',
      model: serverModel({'/users': [ADMIN, aiUser16(7, 'assistant', true, 'k'), aiUser16(8, 'reviewer', false, 'k')]}),
      findings: [{subject: 'AI user assistant', severity: 'medium', pointer: '/users/1/aiSetting/entitleToAll', messageIncludes: ['anonymous visitors', 'AI Settings > Entitlement']}],
    },
  ],
})
