/**
 * OneDev ≤ 8.0.4 action authorizations (`CreateTagAuthorization`, `CloseMilestoneAuthorization`)
 * that let builds of any branch create tags or close milestones. A null `authorizedBranches` meant
 * `**`, and a null `tagNames`/`milestoneNames` meant any (reference §2, §7.9).
 */
import {actionAuthorizationKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import type {ActionAuthorization} from '../../src/model/types.js'
import {pathMatcher} from '../../src/onedev/matchers.js'
import {matchesArbitraryNames, tryParsePatternSet} from '../../src/onedev/pattern-set.js'
import {memberPointer} from '../../src/onedev/url.js'

/** What the authorization lets a build do, in words. */
function action(authorization: ActionAuthorization): {subject: string; what: string} {
  if (authorization.type === 'CreateTagAuthorization') {
    return {
      subject: 'create tag',
      what: authorization.names === null ? 'create any tag (tag names are empty, which means any)' : `create tags matching \`${authorization.names}\``,
    }
  }
  if (authorization.type === 'CloseMilestoneAuthorization') {
    return {
      subject: 'close milestone',
      what: authorization.names === null ? 'close any milestone (milestone names are empty, which means any)' : `close milestones matching \`${authorization.names}\``,
    }
  }
  return {subject: authorization.type, what: `perform ${authorization.type}`}
}

function branchesAreBroad(branches: string | null): boolean {
  if (branches === null || branches.trim() === '') return true
  const set = tryParsePatternSet(branches)
  return set !== null && matchesArbitraryNames(set, pathMatcher)
}

export default defineRule({
  meta: {
    id: 'build/action-authorization-broad',
    shortDescription: 'Builds of any branch may create tags or close milestones (OneDev 8.0)',
    fullDescription:
      'On OneDev 8.0.4 and earlier, build action authorizations decide which builds may create tags and close milestones. ' +
      'Empty authorized branches meant every branch, and empty tag or milestone names meant any. ' +
      'A build on a branch anyone with write access can create may then create release tags (which downstream systems trust) or close milestones.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'New projects on OneDev 8.0 got two action authorizations with every field empty. With them, a build of any branch can create',
      'any tag, for example a release tag that deployment pipelines pick up, from code nobody reviewed.',
      '',
      '## Fix',
      'In OneDev 8.0 open *Project → Settings → Build → Action Authorizations* and set *Authorized Branches* to protected branches',
      '(and tag or milestone names to what the release process needs), or remove authorizations that are not used.',
      'Upgrading past 8.0.4 removes action authorizations altogether.',
      '',
      '## Example',
      '```json',
      '{"@type": "CreateTagAuthorization", "authorizedBranches": null, "tagNames": null}      // reported',
      '{"@type": "CreateTagAuthorization", "authorizedBranches": "main", "tagNames": "v*"}   // fine',
      '```',
    ].join('\n'),
    tags: ['ci', 'releases', 'legacy'],
    scope: 'project',
    // Servers since 8.0.5 have no action authorizations: there the rule has nothing to find, and its silence is no evidence.
    requires: ['/projects/{id}/setting#/buildSetting/actionAuthorizations'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project} = context
    const drafts: FindingDraft[] = []
    for (const authorization of project.setting?.actionAuthorizations ?? []) {
      if (!branchesAreBroad(authorization.authorizedBranches)) continue
      const {subject, what} = action(authorization)
      const branches =
        authorization.authorizedBranches === null || authorization.authorizedBranches.trim() === ''
          ? 'its authorized branches are empty, which OneDev 8.0 reads as "**"'
          : `its authorized branches \`${authorization.authorizedBranches}\` match branch names anyone can create`
      drafts.push({
        subject,
        message: `${authorization.type} lets a build of any branch ${what}: ${branches}. Set the authorized branches to protected branches such as \`main\`.`,
        pointer: memberPointer(project.raw, authorization.pointer, 'authorizedBranches'),
        key: actionAuthorizationKey(authorization),
      })
    }
    return drafts
  },
})
