import rule from '../../../rules/branch-protection/signature-not-required.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'signature required', model: model({projects: [project({branchProtections: [{signatureRequired: true}]})]})},
    {name: 'unprotected branch', model: model({projects: [project()]})},
    {
      name: 'merged semantics: any source requiring it is enough',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main', signatureRequired: true}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'default: no signature',
      model: model({projects: [project({branchProtections: [{}]})]}),
      findings: [{subject: 'main', severity: 'medium', pointer: '/branchProtections/0/commitSignatureRequired', messageIncludes: 'Commit Signature Required'}],
    },
    {
      name: 'first-match: the earlier broad rule decides',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main', signatureRequired: true}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/commitSignatureRequired'}],
    },
    {
      name: 'legacy payload: pointer falls back to the protection when the current field is absent',
      model: model({projects: [legacyProject()]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/signatureRequired'}],
    },
  ],
})

function legacyProject() {
  const p = project({id: 40, branchProtections: [{}]})
  const raw = p.raw as {branchProtections: Record<string, unknown>[]}
  const {commitSignatureRequired: _c, ...rest} = raw.branchProtections[0]!
  raw.branchProtections[0] = {...rest, signatureRequired: false}
  p.setting!.branchProtections[0]!.signaturePointer = '/branchProtections/0/signatureRequired'
  return p
}
