/**
 * Job secrets whose authorization admits builds on branches anyone with write access can create,
 * or (current servers, `authorization: null`) any job at all, including pull requests from forks.
 */
import {defineRule, type FindingDraft, oneLevelLower, type Severity} from '../../src/engine/rule.js'
import type {JobSecret, Project, SecretAuthorization} from '../../src/model/types.js'
import type {SecretAuthorizationAssessment} from '../../src/onedev/job-match.js'
import {narrowSecretFix} from '../support/fixes.js'
import {reportedOwners} from '../../src/onedev/url.js'
import {JOB_SECRET_EMPTY_AUTHORIZATION, releasesOf} from '../../src/onedev/versions.js'

function why(secret: JobSecret, assessment: SecretAuthorizationAssessment, version: string | null | undefined): string {
  if (assessment.breadth === 'any-job') {
    const unknown = assessment.byVersion?.assumed ? ` (the server's version is unknown: judged as OneDev ${releasesOf(JOB_SECRET_EMPTY_AUTHORIZATION, assessment.byVersion.applied)} read it)` : ''
    return `its authorization is empty, which OneDev reads as "any job, including jobs of pull requests from forks"${unknown}: anyone who can open a pull request can run a job that reads it`
  }
  if (assessment.implied !== undefined && assessment.byVersion) {
    return `its authorization is empty, which OneDev ${version} reads as \`${assessment.implied}\` (${releasesOf(JOB_SECRET_EMPTY_AUTHORIZATION, assessment.byVersion.applied)} do): anyone who can push a branch can run a job that reads it`
  }
  if (secret.authorization.kind === 'branches') {
    return assessment.text === null
      ? 'its authorized branches are empty, which OneDev 8.0 reads as "**" (every branch): anyone who can push a branch can run a job that reads it'
      : `its authorized branches \`${assessment.text}\` match branch names anyone can create: anyone who can push a branch can run a job that reads it`
  }
  return `its authorization \`${assessment.text}\` admits builds on branches anyone can create: anyone who can push a branch can run a job that reads it`
}

function draft(
  secret: JobSecret,
  assessment: SecretAuthorizationAssessment,
  owner: Project,
  project: Project,
  assess: (authorization: SecretAuthorization) => SecretAuthorizationAssessment,
  version: string | null | undefined,
): FindingDraft | null {
  if (assessment.breadth !== 'any-job' && assessment.breadth !== 'arbitrary-branches') return null
  const base: Severity = assessment.breadth === 'any-job' ? 'critical' : 'high'
  const inherited = owner.id === project.id ? '' : ` (inherited from ${owner.path})`
  const archived = secret.archived ? ' It is archived, but its value is still stored and still handed to jobs the authorization admits.' : ''
  const fix =
    secret.authorization.kind === 'branches'
      ? ' Set its authorized branches to the protected branches that need it, e.g. `main`.'
      : ' Scope it to the protected branches that need it, e.g. `on branch "main"`.'
  return {
    subject: secret.name,
    message: `Job secret "${secret.name}"${inherited} is too broadly authorized: ${why(secret, assessment, version)}.${archived}${fix}`,
    pointer: secret.authorization.pointer,
    severity: secret.archived ? oneLevelLower(base) : base,
    ...(owner.id === project.id ? {} : {sourceProjectId: owner.id, key: `from:${owner.path}`}),
    fixes: narrowSecretFix(owner, secret, assess),
  }
}

export default defineRule({
  meta: {
    id: 'job-secret/broad-branches',
    shortDescription: 'A job secret is available to builds of branches anyone with write access can create',
    fullDescription:
      'Checks the authorization of every job secret of the project (and of ancestors that are not audited themselves, since secrets are inherited). ' +
      'On current servers (10.9.0 and later, and when the version is unknown) an empty authorization means any job, including jobs of pull requests from forks (critical); ' +
      'from 10.2.0 to 10.8.x it meant every build that is not a pull request (high). `on branch "**"` (the default) admits any branch. ' +
      'On OneDev 8.0 a null `authorizedBranches` meant `**`. A secret that any branch may use can be read by anyone who can push a branch: they change the build spec on their branch to print or send the secret.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'A job reads a secret when the secret\'s authorization admits the build. If it admits builds on any branch, anyone with write access',
      'pushes a branch whose `.onedev-buildspec.yml` echoes the secret or posts it elsewhere. An empty authorization on current servers is',
      'worse: it admits every job, including pull requests from forks.',
      '',
      'Archived secrets are reported one severity lower: they are hidden in the UI but their values are still stored and still used.',
      '',
      '## Fix',
      'In OneDev open *Project → Settings → Build → Job Secrets*, edit the secret and set *Authorization* to the protected branches that need it,',
      'and make sure those branches have branch protections that prevent creation, forced push and unreviewed changes.',
      '',
      '## Example',
      '```',
      'authorization: on branch "main"            # good',
      'authorization: on branch "main", "release/*"  # good when release/* is protected',
      'authorization: on branch "**"              # reported (high)',
      'authorization: (empty)                     # reported (critical)',
      '```',
    ].join('\n'),
    tags: ['secrets', 'ci'],
    scope: 'project',
    fix: 'suggestion',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, ancestors} = context
    const owners = reportedOwners(project, ancestors, context.audited)
    const drafts: FindingDraft[] = []
    // Assessed once per distinct text in the run (the secrets' own, and the narrowed one a fix suggests).
    const assess = (authorization: SecretAuthorization) => context.facts.server.secretAuthorization(authorization)
    for (const owner of [project, ...ancestors]) {
      if (!owners.has(owner.id)) continue
      for (const secret of owner.setting?.jobSecrets ?? []) {
        const found = draft(secret, assess(secret.authorization), owner, project, assess, context.model.server?.version)
        if (found) drafts.push(found)
      }
    }
    return drafts
  },
})
