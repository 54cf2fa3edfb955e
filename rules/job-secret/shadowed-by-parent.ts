/**
 * A project's job secret that an ancestor's same-named secret undermines: OneDev tries every
 * secret of that name, own first, then each ancestor's, and hands out the first one whose
 * authorization admits the build (`JobAuthorizationContext#getSecretValue`, reference §3.6). A
 * build the child's secret refuses therefore still gets the parent's value if the parent's admits it.
 *
 * "Broader" is judged conservatively: the ancestor's authorization is reported unless it is provably
 * within the child's (the same expression, the child's with extra `and` criteria, fewer branch
 * patterns, or for 8.0 pattern sets fewer includes and no fewer excludes) or within one of the
 * project's own secrets of that name (several count together, in whatever order they are listed).
 * Unparsable authorizations are left to other checks.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import type {JobSecret} from '../../src/model/types.js'
import {type SecretAuthorizationAssessment, isProvablyWithin} from '../../src/onedev/job-match.js'
import {mapped} from '../../src/util/collections.js'

function describe(assessment: SecretAuthorizationAssessment, legacy: boolean): string {
  if (assessment.breadth === 'any-job') return 'any job, including pull requests from forks'
  if (assessment.implied !== undefined) return `\`${assessment.implied}\` (an empty authorization on this OneDev version)`
  if (assessment.text === null) return 'every branch (empty authorized branches)'
  return legacy ? `branches \`${assessment.text}\`` : `\`${assessment.text}\``
}

export default defineRule({
  meta: {
    id: 'job-secret/shadowed-by-parent',
    shortDescription: 'A parent project\'s same-named job secret admits builds the project\'s own secret refuses',
    fullDescription:
      'When a job asks for a secret, OneDev goes through every secret with that name: the project\'s own first, then each ancestor\'s, and uses the first one whose authorization admits the build. ' +
      'Scoping a child project\'s secret therefore does not help if a parent holds a secret of the same name with a broader authorization: builds the child\'s secret refuses fall through to the parent\'s value. ' +
      'The rule reports an ancestor\'s same-named secret whose authorization is not provably within the child\'s.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'A child project narrows `deploy-token` to `on branch "main"`, but its parent also defines `deploy-token` with `on branch "**"`.',
      'A job on any branch of the child asks for `deploy-token`: the child\'s secret refuses the build, the parent\'s admits it, and the job',
      'receives the parent\'s value. The narrowing in the child gives a false sense of safety.',
      '',
      '## Fix',
      'In OneDev open the ancestor\'s *Settings → Build → Job Secrets* and narrow its authorization to what every descendant may use,',
      'or rename one of the two secrets so that they no longer share a name.',
      '',
      '## Example',
      '```',
      'parent:  deploy-token   authorization: on branch "**"     # reported on the child',
      'child:   deploy-token   authorization: on branch "main"',
      '```',
      'Silent when the parent\'s authorization is the same as the child\'s or provably narrower (for example `on branch "main" and "Job" is "deploy"`);',
      'when the child holds several secrets of that name, narrower than any one of them.',
    ].join('\n'),
    tags: ['secrets', 'ci', 'inheritance'],
    scope: 'project',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, ancestors} = context
    const assess = (secret: JobSecret) => context.facts.server.secretAuthorization(secret.authorization)
    const drafts: FindingDraft[] = []
    // The project's own secrets by name: a build any of them admits never reaches an ancestor's.
    const ownByName = new Map<string, JobSecret[]>()
    for (const secret of project.setting?.jobSecrets ?? []) ownByName.set(secret.name, [...(ownByName.get(secret.name) ?? []), secret])
    for (const [name, secrets] of ownByName) {
      const own = mapped(secrets, (secret) => ({secret, assessment: assess(secret)}))
      if (own.some((o) => o.assessment.breadth === 'any-job')) continue
      const judged = own.filter((o) => o.assessment.breadth !== 'invalid')
      if (judged.length === 0) continue
      const here = mapped(judged, (o) => describe(o.assessment, o.secret.authorization.kind === 'branches')).join(' or ')
      for (const ancestor of ancestors) {
        for (const inherited of ancestor.setting?.jobSecrets ?? []) {
          if (inherited.name !== name) continue
          const theirs = assess(inherited)
          if (theirs.breadth === 'invalid' || judged.some((o) => isProvablyWithin(theirs, o.assessment))) continue
          const legacy = inherited.authorization.kind === 'branches'
          drafts.push({
            subject: name,
            message:
              `Job secret "${name}" is authorized for ${here} here, ` +
              `but ${ancestor.path} defines a secret of the same name authorized for ${describe(theirs, legacy)}: ` +
              'builds this project\'s secret refuses fall through to the ancestor\'s value. ' +
              'Narrow the ancestor\'s authorization or give the two secrets different names.',
            pointer: inherited.authorization.pointer,
            sourceProjectId: ancestor.id,
            key: `from:${ancestor.path}`,
          })
        }
      }
    }
    return drafts
  },
})
