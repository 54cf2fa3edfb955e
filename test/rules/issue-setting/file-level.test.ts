import notReconciled from '../../../rules/issue-setting/not-reconciled.js'
import omittedKey from '../../../rules/issue-setting/omitted-key.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(notReconciled, {
  valid: [issueCase('reconciled: true', workflow()), issueCase('no reconciled key', workflow({reconciled: undefined}))],
  invalid: [{...issueCase('reconciled: false', workflow({reconciled: false})), findings: [{subject: 'reconciled', severity: 'info', pointer: '/reconciled'}]}],
})

ruleTester(omittedKey, {
  valid: [issueCase('every contract key present (empty lists count)', workflow({boardSpecs: [], listLinks: []}))],
  invalid: [
    {
      ...issueCase('fieldSpecs and issueTemplates left out', (() => {
        const {fieldSpecs: _f, issueTemplates: _t, ...rest} = workflow()
        return rest
      })()),
      findings: [
        {subject: 'fieldSpecs', severity: 'medium', pointer: '', messageIncludes: 'resets fieldSpecs'},
        {subject: 'issueTemplates', pointer: ''},
      ],
    },
  ],
})
