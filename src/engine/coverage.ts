/**
 * What the audit could not judge as asked, said once instead of passing silently: projects whose
 * repository has no commit yet (nothing to judge on branches and tags); each repository endpoint the
 * server does not offer, with how many projects it left unknown and what was judged instead;
 * repository parts that failed for some projects alone (nothing judged in their place); optional
 * endpoints the server does not offer, per-project answers the audit lacks (a snapshot that predates
 * the endpoint), and server data of a shape the audit does not know (the checks that need them are not
 * evaluated, never passed); the judgements the server's version did not decide (version-notice.ts);
 * and branch or tag patterns that matched nothing. Each not-evaluated notice says which families of
 * checks it concerns, for the formats people read to group them.
 */
import {ACCESS_MODEL_ENDPOINTS, PROJECT_ACCESS_ENDPOINTS, REPOSITORY_ENDPOINTS, SERVER_HARDENING_ENDPOINTS} from '../model/endpoints.js'
import {unreadableServerData} from '../model/server-data-check.js'
import {VERSIONED_SERVER_MEMBERS} from '../model/server-members.js'
import {VERSION_ENDPOINT} from '../model/server-version.js'
import type {AuditModel, NotEvaluated, Project, RepositoryPart} from '../model/types.js'
import {checkedBranches, checkedTags, hasWildcard} from '../onedev/checked-refs.js'
import {pathMatcher} from '../onedev/matchers.js'
import type {Notice, ProjectRef} from '../types/report-types.js'
import {endpointOf, missingAnswersPhrase, missingProjectAnswers, projectList} from './availability.js'
import type {AuditSettings} from './rule.js'
import {versionNotices} from './version-notice.js'

/** The families of checks a `not-evaluated` notice concerns, which the formats people read group notices by. */
export type CheckFamily = 'access model' | 'server hardening' | 'branches and tags'

/** Why checks were not evaluated, in a few words. */
export type NotEvaluatedReason = 'not offered' | 'answers of another shape' | 'failed for some projects' | 'not in the snapshot' | 'not collected'

/**
 * A notice; `group` is for the formats people read (src/report/notices.ts), never written to the JSON
 * or SARIF report. `note`: what was judged instead, worth keeping in a group's line.
 */
export interface ReportNotice extends Notice {
  group?: {families: readonly CheckFamily[]; reason: NotEvaluatedReason; note?: string}
}

export interface Coverage {
  /** Audited projects whose repository is not initialized, by path. */
  uninitialized: ProjectRef[]
  notices: ReportNotice[]
}

const BRANCHES_AND_TAGS: CheckFamily[] = ['branches and tags']
function names(refs: {name: string}[]): string {
  return refs.map((ref) => `"${ref.name}"`).join(', ')
}

/** The families of checks an optional endpoint serves (`/sso-providers or /settings/sso-connectors`: either name). */
function familiesOf(endpoint: string): CheckFamily[] {
  const templates = endpoint.split(' or ')
  const families: CheckFamily[] = []
  if (templates.some((template) => ACCESS_MODEL_ENDPOINTS.includes(template))) families.push('access model')
  if (templates.some((template) => SERVER_HARDENING_ENDPOINTS.includes(template))) families.push('server hardening')
  return families
}

/** What an audited project's repository leaves unknown, part by part (not initialized and unreadable projects have nothing unknown). */
function unknownParts(project: Project): RepositoryPart[] {
  const repository = project.repository
  if (repository?.defaultBranch === null || repository?.unreadable) return []
  const parts: RepositoryPart[] = []
  if (repository?.defaultBranch === undefined) parts.push('default-branch')
  if (!repository || repository.branches === null) parts.push('branches')
  if (!repository || repository.tags === null) parts.push('tags')
  return parts
}

/** Where the branch and tag patterns came from, for the notices that name them (`--branch`, `onedev-audit.config.json: branches`). */
export interface PatternOrigins {
  branches: string
  tags: string
}

export function coverageOf(model: AuditModel, settings: AuditSettings, origins?: PatternOrigins): Coverage {
  const uninitialized: ProjectRef[] = []
  const unknown: Record<RepositoryPart, number> = {'default-branch': 0, branches: 0, tags: 0}
  const unreadable: Record<RepositoryPart, ProjectRef[]> = {'default-branch': [], branches: [], tags: []}
  let audited = 0
  for (const project of model.projects) {
    if (!project.setting) continue
    audited++
    if (project.repository?.defaultBranch === null) uninitialized.push({id: project.id, path: project.path})
    for (const part of project.repository?.unreadable ?? []) unreadable[part].push({id: project.id, path: project.path})
    for (const part of unknownParts(project)) unknown[part]++
  }
  const notOffered = new Map((model.notEvaluated ?? []).map((entry) => [entry.endpoint, entry]))
  const notices: ReportNotice[] = [...repositoryNotices(notOffered, unknown, audited, settings), ...unreadableRepositoryNotices(unreadable, audited)]
  const repositoryEndpoints = new Set(Object.values(REPOSITORY_ENDPOINTS))
  for (const entry of model.notEvaluated ?? []) {
    // The version decides no check of its own: what was judged without it is the version notice's.
    if (repositoryEndpoints.has(entry.endpoint) || entry.endpoint === VERSION_ENDPOINT) continue
    notices.push({
      kind: 'not-evaluated',
      message: `GET ${entry.endpoint}: the server does not offer it (${entry.status}), so ${entry.checks} were not evaluated`,
      group: {families: familiesOf(entry.endpoint), reason: 'not offered'},
    })
  }
  notices.push(...missingAnswerNotices(model), ...unreadableNotices(model), ...missingMemberNotices(model), ...versionNotices(model))
  notices.push(...unmatchedPatternNotices([model], settings, origins))
  return {uninitialized, notices}
}

/** One notice per member of server data (VERSIONED_SERVER_MEMBERS) some items of its answer lack: this server's version does not send it. */
function missingMemberNotices(model: AuditModel): ReportNotice[] {
  return Object.entries(VERSIONED_SERVER_MEMBERS).flatMap(([requirement, member]) => {
    const missing = member.missing(model)
    if (missing === 0) return []
    const [endpoint, pointer] = requirement.split('#') as [string, string]
    return [
      {
        kind: 'not-evaluated' as const,
        message: `GET ${endpoint}: ${missing} ${member.items} come without ${pointer.slice(1)} (only ${member.servers} send it), so ${member.checks} were not evaluated`,
        group: {families: familiesOf(endpoint), reason: 'answers of another shape' as const},
      },
    ]
  })
}

/**
 * The notices naming the branch and tag patterns that matched no branch or tag of any audited project
 * of `models` (one for a scan, both sides of a diff), kind `warning`: a pattern the user gave (a
 * typo, another project's naming) is never dropped without a word.
 */
export function unmatchedPatternNotices(models: readonly AuditModel[], settings: AuditSettings, origins?: PatternOrigins): Array<ReportNotice & {kind: 'warning'}> {
  return [...unmatchedPatterns(models, settings.branches, 'branch', origins?.branches), ...unmatchedPatterns(models, settings.tags, 'tag', origins?.tags)]
}

/**
 * One notice naming the branch (or tag) patterns that matched no branch (tag) of any audited project,
 * so that a pattern the user gave (a typo, another project's naming) is never dropped without a word:
 * nothing was judged for it. Said only when every audited project's list is known: where one is not,
 * the notices of the repository endpoints say what was judged instead. A not initialized repository
 * has no branch or tag to match.
 */
function unmatchedPatterns(models: readonly AuditModel[], patterns: readonly string[], kind: 'branch' | 'tag', origin: string | undefined): Array<ReportNotice & {kind: 'warning'}> {
  if (patterns.length === 0) return []
  const lists: string[][] = []
  const audited = new Set<number>()
  for (const project of models.flatMap((model) => model.projects)) {
    if (!project.setting) continue
    audited.add(project.id)
    const repository = project.repository
    if (repository?.defaultBranch === null) continue
    const list = kind === 'branch' ? repository?.branches : repository?.tags
    if (!repository || repository.unreadable?.length || !Array.isArray(list)) return []
    lists.push(kind === 'branch' && typeof repository.defaultBranch === 'string' ? [repository.defaultBranch, ...list] : list)
  }
  if (audited.size === 0) return []
  const unmatched = [...new Set(patterns)].filter((pattern) => !lists.some((names) => names.some((name) => typeof name === 'string' && pathMatcher(pattern, name))))
  if (unmatched.length === 0) return []
  const several = unmatched.length > 1
  return [
    {
      kind: 'warning',
      message:
        `the ${kind} pattern${several ? 's' : ''} ${names(unmatched.map((name) => ({name})))}${origin ? ` (${origin})` : ''} matched no ${kind} of ${audited.size === 1 ? 'the audited project' : `the ${audited.size} audited projects`}: ` +
        `nothing was judged for ${several ? 'them' : 'it'}; check ${several ? 'them' : 'it'} for a typo`,
    },
  ]
}

/**
 * One notice per per-project endpoint the audit has no answer for, for some projects that need one
 * (a snapshot that predates the endpoint, or an edited one): the checks that need it were not evaluated.
 */
function missingAnswerNotices(model: AuditModel): ReportNotice[] {
  const missing = missingProjectAnswers(model, PROJECT_ACCESS_ENDPOINTS.map((spec) => spec.endpoint))
  return PROJECT_ACCESS_ENDPOINTS.flatMap((spec) => {
    const answers = missing.get(spec.endpoint)
    if (!answers) return []
    return [
      {
        kind: 'not-evaluated' as const,
        message: `GET ${spec.endpoint}: ${missingAnswersPhrase(answers)}: the snapshot predates the endpoint or was edited, so ${spec.checks} were not evaluated`,
        group: {families: familiesOf(spec.endpoint), reason: 'not collected' as const},
      },
    ]
  })
}

/**
 * One notice per repository endpoint the server does not offer, with how many audited projects it
 * left unknown and what was judged instead. A model without the record (a snapshot of an older
 * version) that lacks default branches gets the notice older versions gave.
 */
function repositoryNotices(notOffered: ReadonlyMap<string, NotEvaluated>, unknown: Record<RepositoryPart, number>, audited: number, settings: AuditSettings): ReportNotice[] {
  const notices: ReportNotice[] = []
  const branches = names(checkedBranches(null, settings.branches))
  const tags = names(checkedTags(null, settings.tags))
  const missing = (part: RepositoryPart) => notOffered.get(REPOSITORY_ENDPOINTS[part])
  const notice = (part: RepositoryPart, consequence: string, note?: string): ReportNotice => ({
    kind: 'not-evaluated',
    message: `GET ${REPOSITORY_ENDPOINTS[part]}: the server does not offer it (${missing(part)!.status}), so ${consequence}`,
    group: {families: BRANCHES_AND_TAGS, reason: 'not offered', ...(note ? {note} : {})},
  })
  const of = (part: RepositoryPart) => `${unknown[part]} of ${audited} projects`
  if (unknown['default-branch'] > 0 && !missing('default-branch')) {
    notices.push({
      kind: 'not-evaluated',
      message:
        `default branches were unknown for ${unknown['default-branch']} of ${audited} projects (the server does not offer GET /repositories/{id}/default-branch, or the snapshot predates it): ` +
        `their branch protections were judged for ${branches} and their tag protections for ${tags} instead of the branches and tags that exist`,
      group: {families: BRANCHES_AND_TAGS, reason: 'not in the snapshot'},
    })
  }
  if (unknown['default-branch'] > 0 && missing('default-branch')) {
    // With entries to match, the branch lists were read: the assumed names were judged only where they exist.
    const where = settings.branches.length > 0 && !missing('branches') ? ' where their branch lists have it' : ''
    notices.push(notice('default-branch', `the default branches of ${of('default-branch')} are unknown: their branch protections were judged for ${branches} instead${where}`, `branch protections judged for ${branches}${where}`))
  }
  const wildcards = settings.branches.filter(hasWildcard)
  if (unknown.branches > 0 && missing('branches') && settings.branches.length > 0) {
    const named = names([...new Set(settings.branches.filter((entry) => !hasWildcard(entry)))].map((name) => ({name})))
    notices.push(
      notice(
        'branches',
        `the branch lists of ${of('branches')} are unknown: besides the default branch, ${named === '' ? 'no branch was' : `${named} ${named.includes(',') ? 'were' : 'was'}`} judged` +
          (wildcards.length > 0 ? `, and no existing branch was matched against ${names(wildcards.map((name) => ({name})))}` : ''),
      ),
    )
  }
  if (unknown.tags > 0 && missing('tags')) {
    notices.push(notice('tags', `the tags of ${of('tags')} are unknown: their tag protections were judged for ${tags} instead of the tags that exist`, `tag protections judged for ${tags}`))
  }
  return notices
}

/** One notice per repository part that failed for some projects alone: nothing was judged in its place. */
function unreadableRepositoryNotices(unreadable: Record<RepositoryPart, ProjectRef[]>, audited: number): ReportNotice[] {
  const consequence: Record<RepositoryPart, [string, string]> = {
    'default-branch': ['the default branch', 'their branches and tags were not judged'],
    branches: ['the branch list', 'only their default branch was judged'],
    tags: ['the tag list', 'their tags were not judged'],
  }
  return (Object.keys(consequence) as RepositoryPart[])
    .filter((part) => unreadable[part].length > 0)
    .map((part) => ({
      kind: 'not-evaluated',
      message: `${consequence[part][0]} of ${unreadable[part].length} of ${audited} project${audited === 1 ? '' : 's'} could not be read (${projectList(unreadable[part])}): ${consequence[part][1]}; the errors say why`,
      group: {families: BRANCHES_AND_TAGS, reason: 'failed for some projects'},
    }))
}

/**
 * One notice per endpoint whose answers the audit could not read (wholly or some of their items); the
 * answers of one endpoint for many projects, groups or users make one notice with counts.
 */
function unreadableNotices(model: AuditModel): ReportNotice[] {
  const byEndpoint = new Map<string, {answers: number; whole: number; items: number; total: number}>()
  for (const found of unreadableServerData(model.serverData)) {
    const endpoint = endpointOf(found.key)
    const entry = byEndpoint.get(endpoint) ?? {answers: 0, whole: 0, items: 0, total: 0}
    entry.answers++
    if (found.extent === 'whole') entry.whole++
    else {
      entry.items += found.unreadable
      entry.total += found.total
    }
    byEndpoint.set(endpoint, entry)
  }
  const notices: ReportNotice[] = []
  for (const [endpoint, entry] of byEndpoint) {
    const parts: string[] = []
    if (entry.whole > 0) {
      parts.push(
        entry.answers === 1 && entry.items === 0
          ? 'its answer has a shape the audit does not know, so the checks that need it were not evaluated'
          : `${entry.whole} of its answers ha${entry.whole === 1 ? 's' : 've'} a shape the audit does not know, so the checks that need them were not evaluated`,
      )
    }
    if (entry.items > 0) parts.push(`${entry.items} of ${entry.total} items have a shape the audit does not know and were left out of the checks`)
    notices.push({kind: 'not-evaluated', message: `GET ${endpoint}: ${parts.join('; ')}`, group: {families: familiesOf(endpoint), reason: 'answers of another shape'}})
  }
  return notices
}
