import {defineRule} from '../../src/engine/rule.js'

export default defineRule({
  meta: {
    id: 'issue-setting/not-reconciled',
    shortDescription: 'The setting says it is not reconciled.',
    fullDescription:
      'reconciled: false means OneDev found, or may find, references to states, fields or field values that no longer exist (in projects, issues, queries) and an administrator has not yet run the reconciliation wizard. The server sets it to false on every REST POST anyway.',
    defaultSeverity: 'info',
    help: [
      'OneDev sets `reconciled` to false whenever the workflow changes, including on every `POST /settings/issue` whatever the body says, and shows "Issue workflow changed, reconciliation needs to be performed" until an administrator maps or deletes the dangling references in the reconcile wizard.',
      '',
      '**After applying:** open *Administration → Issue Settings* and run the reconciliation.',
    ].join('\n'),
    tags: ['issue-workflow'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting' || context.issueSetting.reconciled !== false) return []
    return [
      {
        subject: 'reconciled',
        pointer: '/reconciled',
        message: 'The setting is marked as not reconciled: after applying it, run the reconciliation in Administration > Issue Settings so dangling state and field references are resolved.',
      },
    ]
  },
})
