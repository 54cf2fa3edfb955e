import rule from '../../../rules/branch-protection/user-bypass.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const strict = {reviewRequirement: 'group(core):2', jobNames: ['ci']}
const parent = project({id: 50, path: 'acme', branchProtections: [{userMatch: 'anyone except user(deployer)', ...strict}]})

ruleTester(rule, {
  valid: [
    {name: 'anyone without exceptions', model: model({projects: [project({branchProtections: [{...strict}]})]})},
    {
      name: 'excluded group gets an equally strict protection next',
      model: model({projects: [project({branchProtections: [{userMatch: 'anyone except group(bots)', ...strict}, {userMatch: 'group(bots)', ...strict, signatureRequired: true}]})]}),
    },
    {
      name: 'a weaker protection for a user after the general one never applies to them',
      model: model({projects: [project({branchProtections: [{...strict}, {userMatch: 'user(bot)', preventForcedPush: false}]})]}),
    },
    {name: 'unprotected for everyone else: unprotected-branch reports it', model: model({projects: [project({branchProtections: [{userMatch: 'group(bots)'}]})]})},
    {
      name: 'stronger for the named user is fine',
      model: model({projects: [project({branchProtections: [{userMatch: 'user(intern)', ...strict}, {}]})]}),
    },
  ],
  invalid: [
    {
      name: 'except clause with nothing after it',
      model: model({projects: [project({branchProtections: [{userMatch: 'anyone except group(release-bots)', reviewRequirement: 'group(core)'}]})]}),
      findings: [
        {
          subject: 'main',
          severity: 'high',
          pointer: '/branchProtections/0/userMatch',
          messageIncludes: ['for group(release-bots): no protection applies', 'so they can force-push, delete it and push without review, which everyone else cannot'],
        },
      ],
    },
    {
      name: 'a weaker protection placed first wins for the named user',
      model: model({projects: [project({branchProtections: [{userMatch: 'user(bot)', preventForcedPush: false, preventDeletion: false}, {...strict}]})]}),
      findings: [
        {
          subject: 'main',
          pointer: '/branchProtections/0',
          messageIncludes: ['for user(bot): the branch protection /branchProtections/0 ("main") applies to them instead of the branch protection /branchProtections/1', 'force-push, delete it, push without review and skip the required build "ci"'],
        },
      ],
    },
    {
      name: 'fewer reviews for a group',
      model: model({projects: [project({branchProtections: [{userMatch: 'group(seniors)', reviewRequirement: 'group(core)', jobNames: ['ci']}, {...strict}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0', messageIncludes: 'merge without 2 reviews of group(core)'}],
    },
    {
      name: 'two excluded principals give two findings',
      // same rule, project and subject: the engine orders them by fingerprint (the key is the principal)
      model: model({projects: [project({id: 52, path: 'acme/two', branchProtections: [{userMatch: 'anyone except group(bots) and user(admin)'}]})]}),
      findings: [
        {subject: 'main', messageIncludes: 'for user(admin)'},
        {subject: 'main', messageIncludes: 'for group(bots)'},
      ],
    },
    {
      name: 'inherited except clause points into the parent',
      model: model({projects: [project({id: 51, parentId: 50, path: 'acme/app'})], ancestors: [parent]}),
      findings: [{subject: 'main', sourceId: 50, pointer: '/branchProtections/0/userMatch', messageIncludes: ['for user(deployer)', 'inherited from parent project acme']}],
    },
    {
      name: 'merged semantics: an earlier protection for everyone still binds the user',
      model: model({projects: [project({branchProtections: [{userMatch: 'user(bot)', preventForcedPush: false, ...strict}, {userMatch: 'anyone except user(bot)', ...strict, signatureRequired: true}]})]}),
      settings: {protectionSemantics: 'merged'},
      findings: [{subject: 'main', pointer: '/branchProtections/0', messageIncludes: 'so they can force-push and push unsigned commits'}],
    },
  ],
})
