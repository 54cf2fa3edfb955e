import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {principalClasses} from '../../src/onedev/protection.js'
import {exceptionFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, listPhrase, branchPhrase, memberPointer} from '../support/protection-findings.js'
import {weakerThanOthers} from '../../src/onedev/protection-judgement.js'
import {describePrincipal} from '../../src/onedev/user-match.js'

export default defineRule({
  meta: {
    id: 'branch-protection/user-bypass',
    shortDescription: 'Some users or groups get weaker branch protection than everyone else',
    fullDescription:
      'For each checked branch, compares the branch protection that applies to each user and group named in an Applicable Users expression (userMatch) with the one that applies to everyone else. A user or group excluded by `except`, or matched first by a weaker protection, can do what others cannot: force-push, delete the branch, push without review, signature or builds. OneDev has no administrator bypass of its own, so this is the bypass list.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** A protection applies only to the users its *Applicable Users* (`userMatch`) matches. `anyone except group(release-bots)` leaves release-bots to the next protection in the list, or to none, in which case OneDev allows them everything. Likewise a weaker protection for `user(bot)` placed before the general one wins for bot, because the first matching protection applies.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, remove the `except` clause, or add a protection for the excluded users after it that is as strict as the general one, or move the general protection above the weaker one. If an automation account truly needs to push, give it the narrowest possible exception (no force push, no deletion) and review it regularly.',
      '',
      '**Example.** `anyone except group(release-bots)` followed by nothing: for group(release-bots) no protection applies, so its members can force-push, delete the branch and push without review.',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const semantics = context.settings.protectionSemantics
    const {facts} = context
    const principals = principalClasses(facts.branchHierarchy).filter((p) => p.kind !== 'others')
    const findings: FindingDraft[] = []
    for (const ref of context.facts.checkedBranches) {
      const branch = ref.name
      const forOthers = facts.effectiveBranchProtection(branch, {kind: 'others'})
      if (!forOthers) continue
      for (const principal of principals) {
        const forPrincipal = facts.effectiveBranchProtection(branch, principal)
        const weaker = weakerThanOthers(forPrincipal, forOthers, semantics)
        if (weaker.length === 0) continue
        const who = describePrincipal(principal)
        const othersSource = forOthers.sources[0]!
        const location = forPrincipal
          ? at(context, forPrincipal.sources[0]!, forPrincipal.sources[0]!.item.pointer)
          : at(context, othersSource, memberPointer(context, othersSource, othersSource.item.pointer, 'userMatch'))
        const what = forPrincipal
          ? `${describeSources(context, forPrincipal.sources, 'branch protection')} applies to them instead of ${describeSources(context, forOthers.sources, 'branch protection')}`
          : `no protection applies, because ${describeSources(context, forOthers.sources, 'branch protection')} leaves them out with its user match "${othersSource.item.userMatch}"`
        findings.push({
          subject: branch,
          key: who,
          ...location,
          message:
            `On ${branchPhrase(ref)}, for ${who}: ${what}, so they can ${listPhrase(weaker)}, which everyone else cannot.` +
            (forPrincipal
              ? ` Make that protection as strict as the one everyone else gets, or change the user matches so that the stricter one applies to ${who} too, in ${fixWhere(context, forPrincipal.sources[0]!, BRANCH_PROTECTION_UI)}.`
              : ` Remove the exception, or add an equally strict protection for ${who} after it, in ${fixWhere(context, othersSource, BRANCH_PROTECTION_UI)}.`),
          fixes: forPrincipal ? [] : exceptionFix(context, othersSource, principal, who),
        })
      }
    }
    return findings
  },
})
