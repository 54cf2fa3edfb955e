/**
 * branch-protection/strict-builds-not-required. `requireStrictBuilds` is a field of BranchProtection
 * since 8.0.0 (BranchProtection.java:61; v16.5.6 :76), false by default; servers up to 8.1 merged the
 * matching protections and OR-ed it (v8.0.0 Project.java:1181).
 */
import rule from '../../../rules/branch-protection/strict-builds-not-required.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'strict builds required', model: model({projects: [project({branchProtections: [{jobNames: ['ci'], requireStrictBuilds: true}]})]})},
    {name: 'no required jobs: the setting takes no effect (build-not-required reports it)', model: model({projects: [project({branchProtections: [{jobNames: []}]})]})},
    {name: 'unprotected branch', model: model({projects: [project()]})},
    {
      name: 'first match: the protection that applies is strict, a later one is not',
      model: model({projects: [project({branchProtections: [{branches: 'main', jobNames: ['ci'], requireStrictBuilds: true}, {branches: '**', jobNames: ['ci']}]})]}),
    },
    {
      name: 'up to 8.1 matching protections were merged: one strict protection makes the branch strict',
      model: model({projects: [project({branchProtections: [{branches: '**', jobNames: ['ci']}, {branches: 'main', requireStrictBuilds: true}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'required jobs, not strict',
      model: model({projects: [project({branchProtections: [{jobNames: ['ci', 'lint']}]})]}),
      findings: [
        {
          subject: 'main',
          severity: 'low',
          pointer: '/branchProtections/0/requireStrictBuilds',
          messageIncludes: ['Pull requests into branch "main"', 'requires builds of "ci" and "lint" but not strict pull request builds', 'Check "Require Strict Pull Request Builds" on that protection in Project Settings > Branch Protection'],
        },
      ],
    },
    {
      name: "only a file protection's jobs: they count when a changed file matches (BranchProtection.java:375–381)",
      model: model({projects: [project({branchProtections: [{jobNames: [], fileProtections: [{paths: '**/*.sql', jobNames: ['db-check']}]}]})]}),
      findings: [{subject: 'main', messageIncludes: 'requires builds of "db-check"'}],
    },
    {
      name: 'first match: a strict protection later in the list does not help',
      model: model({projects: [project({branchProtections: [{branches: 'main', jobNames: ['ci']}, {branches: '**', jobNames: ['ci'], requireStrictBuilds: true}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/requireStrictBuilds'}],
    },
    {
      name: "inherited from the parent: fixed there",
      model: model({projects: [project({id: 2, path: 'org/app', parentId: 1})], ancestors: [project({id: 1, path: 'org', branchProtections: [{jobNames: ['ci']}]})]}),
      findings: [{subject: 'main', sourceId: 1, messageIncludes: 'Project Settings > Branch Protection of parent project org'}],
    },
  ],
})
