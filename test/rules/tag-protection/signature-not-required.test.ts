import rule from '../../../rules/tag-protection/signature-not-required.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'signature required', model: model({projects: [project({tagProtections: [{signatureRequired: true}]})]})},
    {name: 'unprotected', model: model({projects: [project()]})},
  ],
  invalid: [
    {
      name: 'default: no signature',
      model: model({projects: [project({tagProtections: [{}]})]}),
      findings: [{subject: 'v*', severity: 'low', pointer: '/tagProtections/0/commitSignatureRequired', messageIncludes: 'without a valid signature'}],
    },
  ],
})
