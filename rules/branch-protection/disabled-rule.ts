import {protectionKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {enableFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, memberPointer} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/disabled-rule',
    shortDescription: 'A branch protection is disabled',
    fullDescription:
      'Lists the project\'s own branch protections whose Enabled flag is off. OneDev skips disabled protections entirely, so the branches they name get whatever protection comes next, or none.',
    defaultSeverity: 'info',
    help: [
      '**Risk.** A disabled protection is easy to mistake for an active one when reading the settings. It is often left over from a temporary change.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, enable the protection again, or delete it if it is no longer wanted.',
      '',
      '**Example.** `{"enabled": false, "branches": "main"}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const project = context.project
    const findings: FindingDraft[] = []
    for (const item of project.setting?.branchProtections ?? []) {
      if (item.enabled) continue
      const located = {item, projectId: project.id, projectPath: project.path}
      findings.push({
        subject: item.branches ?? '',
        key: protectionKey(item.branches, item.userMatch),
        ...at(context, located, memberPointer(context, located, item.pointer, 'enabled')),
        message:
          `The branch protection ${item.pointer} ("${item.branches ?? ''}") is disabled, so OneDev skips it and those branches fall through to the next protection or to none.` +
          ` Enable it again or delete it in ${BRANCH_PROTECTION_UI}.`,
        fixes: enableFix(context, located),
      })
    }
    return findings
  },
})
