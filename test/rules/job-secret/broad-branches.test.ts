import {describe, expect, it} from 'vitest'

import rule from '../../../rules/job-secret/broad-branches.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester, runRule} from '../../helpers/rule-tester.js'

const LEGACY_POINTER = '/buildSetting/jobSecrets/0/authorizedBranches'
const CURRENT_POINTER = '/buildSetting/jobSecrets/0/authorization'

const legacy = (authorizedBranches: string | null, extra: {archived?: boolean} = {}) =>
  model({projects: [project({id: 1, path: 'acme/app', jobSecrets: [{name: 'deploy-token', authorizedBranches, ...extra}]})]})
const current = (authorization: string | null, extra: {archived?: boolean} = {}) =>
  model({projects: [project({id: 1, path: 'acme/app', jobSecrets: [{name: 'deploy-token', authorization, ...extra}]})]})

/** The same secret on a server that answered GET /version/server with `version`. */
const on = (version: string, authorization: string | null) => {
  const built = current(authorization)
  return {...built, server: {...built.server!, version}}
}

const parent = project({id: 10, path: 'acme', jobSecrets: [{name: 'org-token', authorization: 'on branch "**"'}]})
const childA = project({id: 11, path: 'acme/a', parentId: 10})
const childB = project({id: 12, path: 'acme/b', parentId: 10})

ruleTester(rule, {
  valid: [
    {name: 'no secrets', model: model({projects: [project()]})},
    {name: 'current on branch "main"', model: current('on branch "main"')},
    {name: 'current on branch "main", "release/*"', model: current('on branch "main", "release/*"')},
    {name: 'current main and a job name', model: current('on branch "main" and "Job" is "deploy"')},
    {name: 'current not(on branch "**")', model: current('not(on branch "**")')},
    {name: 'legacy main', model: legacy('main')},
    {name: 'legacy release/*', model: legacy('release/*')},
    {name: 'legacy main and release/**', model: legacy('main release/**')},
    {name: 'unparsable authorization (left to the server, not judged here)', model: current('on branch')},
    // OneDev judges each `on branch` value with matchPath: one path pattern, never a pattern set.
    {name: 'current on branch "-main": one pattern, the branch literally named -main', model: current('on branch "-main"')},
    {name: 'current on branch "main dev": one pattern, a branch literally named "main dev"', model: current('on branch "main dev"')},
  ],
  invalid: [
    {
      name: 'legacy null authorizedBranches (meant **)',
      model: legacy(null),
      findings: [{subject: 'deploy-token', severity: 'high', pointer: LEGACY_POINTER, messageIncludes: ['"**"', 'anyone who can push a branch can run a job that reads it', '`main`']}],
    },
    {name: 'legacy empty authorizedBranches', model: legacy(''), findings: [{subject: 'deploy-token', severity: 'high', pointer: LEGACY_POINTER}]},
    {name: 'legacy **', model: legacy('**'), findings: [{subject: 'deploy-token', severity: 'high', pointer: LEGACY_POINTER, messageIncludes: '`**` match branch names anyone can create'}]},
    {name: 'legacy * (any top-level branch)', model: legacy('*'), findings: [{subject: 'deploy-token', severity: 'high'}]},
    {name: 'legacy exclusion-only -main', model: legacy('-main'), findings: [{subject: 'deploy-token', severity: 'high', messageIncludes: '`-main`'}]},
    {
      name: 'current null authorization: any job including fork pull requests',
      model: current(null),
      findings: [{subject: 'deploy-token', severity: 'critical', pointer: CURRENT_POINTER, messageIncludes: ['pull requests from forks', 'on branch "main"']}],
    },
    {
      // v16.5.6 JobAuthorizationContext.java:80-82: an empty authorization hands the value to every build.
      name: 'OneDev 16.5.6, null authorization: any job including fork pull requests, by the version',
      model: on('16.5.6', null),
      findings: [{subject: 'deploy-token', severity: 'critical', messageIncludes: 'which OneDev reads as "any job, including jobs of pull requests from forks": anyone'}],
    },
    {
      name: 'version unknown, null authorization: the reading that exposes more, said',
      model: current(null),
      findings: [{subject: 'deploy-token', severity: 'critical', messageIncludes: "(the server's version is unknown: judged as OneDev 10.9.0 and later read it)"}],
    },
    {
      // v10.2.0 JobAuthorizationContext.java:68-70 (to v10.8.x): an empty authorization is `non-pull-request commits`.
      name: 'OneDev 10.5.0, null authorization: every build that is not a pull request (high, not critical)',
      model: on('10.5.0', null),
      findings: [{subject: 'deploy-token', severity: 'high', pointer: CURRENT_POINTER, messageIncludes: 'its authorization is empty, which OneDev 10.5.0 reads as `non-pull-request commits` (10.2.0 to 10.8.x do)'}],
    },
    {
      name: 'current on branch "**" (the UI default)',
      model: current('on branch "**"'),
      findings: [{subject: 'deploy-token', severity: 'high', pointer: CURRENT_POINTER, messageIncludes: ['`on branch "**"`', 'anyone who can push a branch can run a job that reads it', 'e.g. `on branch "main"`']}],
    },
    {name: 'current not(on branch "main")', model: current('not(on branch "main")'), findings: [{subject: 'deploy-token', severity: 'high'}]},
    {name: 'current main or a job name the writer chooses', model: current('on branch "main" or "Job" is "deploy"'), findings: [{subject: 'deploy-token', severity: 'high'}]},
    {
      name: 'archived broad secret: one severity lower, and says so',
      model: current('on branch "**"', {archived: true}),
      findings: [{subject: 'deploy-token', severity: 'medium', messageIncludes: 'archived'}],
    },
    {name: 'archived secret with null authorization: high', model: current(null, {archived: true}), findings: [{subject: 'deploy-token', severity: 'high', messageIncludes: 'archived'}]},
    {
      name: 'several secrets, broadest first',
      model: model({
        projects: [
          project({
            id: 1,
            path: 'acme/app',
            jobSecrets: [
              {name: 'b-broad', authorization: 'on branch "**"'},
              {name: 'c-scoped', authorization: 'on branch "main"'},
              {name: 'a-open', authorization: null},
            ],
          }),
        ],
      }),
      findings: [
        {subject: 'a-open', severity: 'critical', pointer: '/buildSetting/jobSecrets/2/authorization'},
        {subject: 'b-broad', severity: 'high', pointer: '/buildSetting/jobSecrets/0/authorization'},
      ],
    },
    {
      name: 'an un-audited parent\'s broad secret surfaces once on each audited child, with the parent as source',
      model: model({projects: [childA, childB], ancestors: [parent]}),
      findings: [
        {subject: 'org-token', severity: 'high', projectId: 11, sourceId: 10, pointer: CURRENT_POINTER, messageIncludes: 'inherited from acme'},
        {subject: 'org-token', severity: 'high', projectId: 12, sourceId: 10, pointer: CURRENT_POINTER},
      ],
    },
    {
      name: 'an audited parent\'s broad secret is reported on the parent only',
      model: model({projects: [parent, childA, childB]}),
      findings: [{subject: 'org-token', severity: 'high', projectId: 10, sourceId: null}],
    },
  ],
})

describe('job-secret/broad-branches fingerprints', () => {
  it('keeps an own secret and a same-named inherited secret apart', () => {
    const root = project({id: 20, path: 'grp', jobSecrets: [{name: 'token', authorization: null}]})
    const child = project({id: 21, path: 'grp/app', parentId: 20, jobSecrets: [{name: 'token', authorization: 'on branch "**"'}]})
    const findings = runRule(rule, {name: 'pair', model: model({projects: [child], ancestors: [root]})})
    expect(findings.map((f) => [f.subject, f.severity, f.source?.id ?? null])).toEqual([
      ['token', 'critical', 20],
      ['token', 'high', null],
    ])
    expect(new Set(findings.map((f) => f.fingerprint)).size).toBe(2)
  })
})
