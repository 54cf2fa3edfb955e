import rule from '../../../rules/file-protection/buildspec-unprotected.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const parent = project({id: 100, path: 'acme', branchProtections: [{jobNames: ['ci']}]})

ruleTester(rule, {
  valid: [
    {name: 'branch requires reviews', model: model({projects: [project({branchProtections: [{reviewRequirement: 'group(core)'}]})]})},
    {
      name: 'file protection with reviewers for the build spec',
      model: model({projects: [project({branchProtections: [{fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(ci-owners)'}]}]})]}),
    },
    {
      name: 'a wildcard file protection covers it',
      model: model({projects: [project({branchProtections: [{fileProtections: [{paths: '*.yml', reviewRequirement: 'user(alice)'}]}]})]}),
    },
    {
      name: 'one of several matching file protections has reviewers',
      model: model({projects: [project({branchProtections: [{fileProtections: [{paths: '**', jobNames: ['ci']}, {paths: '.onedev-buildspec.yml', reviewRequirement: 'user(a)'}]}]})]}),
    },
    {name: 'unprotected branch is unprotected-branch’s business', model: model({projects: [project()]})},
    {
      name: 'merged semantics: a file protection of another applying protection counts',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main', fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(ci)'}]}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'no reviewers and no file protection',
      model: model({projects: [project({branchProtections: [{jobNames: ['ci']}]})]}),
      findings: [{subject: 'main', severity: 'high', pointer: '/branchProtections/0/fileProtections', messageIncludes: ['.onedev-buildspec.yml can be changed on branch "main" (configured) without review', 'has no file protection for it']}],
    },
    {
      name: 'a required build alone does not stop it',
      model: model({projects: [project({branchProtections: [{fileProtections: [{paths: '.onedev-buildspec.yml', jobNames: ['ci']}]}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/fileProtections/0/reviewRequirement', messageIncludes: 'only requires builds'}],
    },
    {
      name: 'a file protection for other paths does not help',
      model: model({projects: [project({branchProtections: [{fileProtections: [{paths: 'src/**', reviewRequirement: 'group(core)'}]}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/fileProtections'}],
    },
    {
      name: 'first-match: the file protection of a later protection does not apply',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main', fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(ci)'}]}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/fileProtections'}],
    },
    {
      name: 'inherited protection: the finding points into the parent',
      model: model({projects: [project({id: 101, parentId: 100, path: 'acme/app'})], ancestors: [parent]}),
      findings: [{subject: 'main', sourceId: 100, pointer: '/branchProtections/0/fileProtections', messageIncludes: 'inherited from parent project acme'}],
    },
  ],
})
