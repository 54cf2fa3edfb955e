/**
 * Random servers for rule property tests: settings of both payload generations (random hierarchies,
 * pattern sets, userMatch and job-match expressions, canaries in secret places, junk where the server
 * is hostile), roles, and the audit settings, turned into a model through the real ingest.
 */
import fc from 'fast-check'

import type {AuditSettings} from '../../src/engine/rule.js'
import {ingestProjectSetting, ingestRoles} from '../../src/model/ingest.js'
import type {AuditModel, PayloadGeneration, Project, RepositoryInfo} from '../../src/model/types.js'

const pick = <T>(...values: T[]) => fc.constantFrom(...values)
const junk = fc.oneof(fc.string({maxLength: 6}), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]))

const branchPattern = pick('main', 'Main', '**', '*', 'release/*', 'release/**', 'feature/', '-main', '-main -develop', 'main release/**', '"a b"', '-"x y"', 'dev?lop', '\\-main', 'main "release 1"', '', '"unterminated')
const user = pick('alice', 'Bob', 'admin', 'ci-bot')
const group = pick('devs', 'release-bots', 'Core Devs')
const criterion = fc.oneof(pick('anyone'), user.map((u) => `user(${u})`), group.map((g) => `group(${g})`))
const userMatch = fc.oneof(
  {weight: 3, arbitrary: pick('anyone')},
  {weight: 3, arbitrary: fc.tuple(fc.array(criterion, {minLength: 1, maxLength: 2}), fc.array(criterion, {maxLength: 2})).map(([or, except]) => or.join(' or ') + (except.length ? ` except ${except.join(' and ')}` : ''))},
  {weight: 1, arbitrary: pick('anyone except', 'user(', 'nobody', '')},
)
const review = pick(null, 'user(alice)', 'group(devs):2', 'user(alice) group(devs)', 'user(alice) and group(devs):all', 'group(', '')
const jobMatch = pick(null, 'on branch "**"', 'on branch "main"', 'on branch "main" or on branch "release/*"', 'not(on branch "main")', '"Job" is "deploy" and on branch "main"', 'on branch "-main"', 'on branch', '"Project" is not "x"', '')
export const canary = fc.stringMatching(/^[a-z0-9]{4,8}$/).map((w) => `CANARY-${w}-7f3a`)
const url = fc.oneof(
  pick('https://ci.example.com/hook', 'http://ci.internal/hook', 'not a url', ''),
  canary.map((c) => `https://user:${c}@hooks.example.com/x`),
  canary.map((c) => `https://ci.example.com/hook?token=${c}`),
  canary.map((c) => `https://hooks.slack.com/services/T000/B000/${c}`),
)
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, {requiredKeys: []})

/**
 * A random server: up to 4 projects (each one's parent is an earlier project or none; some are
 * ancestors only), roles and the audit settings. `hostile` puts junk where the server is hostile,
 * which often makes a whole setting invalid; a well-formed world reaches more findings.
 */
function worldOf(hostile: boolean) {
  /** Now and then junk instead of the value (a hostile server); always the value in a well-formed world. */
  const maybe = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> => (hostile ? fc.oneof({weight: 12, arbitrary}, {weight: 1, arbitrary: junk as fc.Arbitrary<T>}) : arbitrary)
  const flag = maybe(fc.oneof(fc.boolean(), fc.constant(null)))
  function settingOf(generation: 'legacy' | 'current') {
    const signature = generation === 'legacy' ? 'signatureRequired' : 'commitSignatureRequired'
    const branchProtection = maybe(
      rec({
        enabled: flag,
        branches: maybe(branchPattern),
        userMatch: maybe(userMatch),
        preventForcedPush: flag,
        preventDeletion: flag,
        preventCreation: flag,
        [signature]: flag,
        reviewRequirement: maybe(review),
        jobNames: maybe(fc.array(pick('ci', 'build', 'deploy'), {maxLength: 2})),
        fileProtections: maybe(fc.array(maybe(rec({paths: maybe(pick('.onedev-buildspec.yml', '**', '*.yml', 'src/**')), reviewRequirement: maybe(review), jobNames: fc.array(pick('ci'), {maxLength: 1})})), {maxLength: 2})),
      }),
    )
    const tagProtection = maybe(rec({enabled: flag, tags: maybe(pick('v*', '**', 'v1.*', '-v2*', '')), userMatch: maybe(userMatch), preventUpdate: flag, preventDeletion: flag, preventCreation: flag, [signature]: flag}))
    const secret =
      generation === 'legacy'
        ? maybe(rec({name: pick('npm-token', 'deploy', 'x'), value: canary, authorizedBranches: maybe(fc.oneof(branchPattern, fc.constant(null)))}))
        : maybe(rec({name: pick('npm-token', 'deploy', 'x'), value: canary, authorization: maybe(jobMatch), archived: flag}))
    const webHook = maybe(rec({postUrl: maybe(url), eventTypes: fc.array(pick('CODE_PUSH', 'BUILD'), {maxLength: 2}), secret: fc.oneof(canary, fc.constant(null)), headers: fc.array(rec({name: pick('Authorization', 'X-Key'), value: canary}), {maxLength: 2})}))
    const notifications = fc.array(maybe(generation === 'legacy' ? rec({channelNotification: rec({webhookUrl: maybe(url), issues: flag})}) : rec({webhookUrl: maybe(url), issues: flag})), {maxLength: 2})
    const contributed =
      generation === 'legacy'
        ? notifications.map((n) => ({'io.onedev.server.plugin.notification.slack.SlackNotificationSetting': {'@type': 'SlackNotificationSetting', notifications: n}}))
        : notifications.map((n) => [{'@type': 'SlackNotificationSetting', notifications: n}])
    return rec({
      branchProtections: maybe(fc.array(branchProtection, {maxLength: 4})),
      tagProtections: maybe(fc.array(tagProtection, {maxLength: 2})),
      buildSetting: maybe(
        rec({
          jobSecrets: maybe(fc.array(secret, {maxLength: 3})),
          ...(generation === 'legacy'
            ? {actionAuthorizations: fc.array(rec({'@type': pick('CreateTagAuthorization', 'CloseMilestoneAuthorization'), authorizedBranches: fc.oneof(branchPattern, fc.constant(null)), tagNames: fc.constant(null)}), {maxLength: 2})}
            : {}),
        }),
      ),
      ...(generation === 'current' ? {webHooks: maybe(fc.array(webHook, {maxLength: 2}))} : {}),
      contributedSettings: contributed,
    })
  }

  const role = rec({
    id: fc.integer({min: 1, max: 50}),
    name: pick('Project Owner', 'Code Writer', 'Ops', 'Bots'),
    manageProject: flag,
    createChildren: flag,
    managePullRequests: flag,
    manageCodeComments: flag,
    manageIssues: flag,
    accessConfidentialIssues: flag,
    manageBuilds: flag,
    jobPrivileges: maybe(fc.array(rec({jobNames: maybe(pick('*', 'release-*', '-deploy', 'ci')), manageJob: flag, runJob: flag, accessLog: flag, accessibleReports: pick(null, '*')}), {maxLength: 2})),
  })

  // A payload is parsed JSON text, where no two places share an object. Generated values can (fast-check
  // reuses constants such as an empty list, and shrinking shares them), and a structuredClone keeps the
  // sharing: a protection appended to `branchProtections` then also showed up in `jobSecrets`.
  const generated = (generation: PayloadGeneration) => settingOf(generation).map((raw) => ({generation, raw: JSON.parse(JSON.stringify(raw)) as unknown}))

  // What the server said about the repository, or nothing (a server without the repository endpoints).
  const repository: fc.Arbitrary<RepositoryInfo | null> = fc.option(
    fc.record({
      defaultBranch: fc.option(pick('main', 'master', 'develop'), {freq: 6}),
      branches: fc.option(fc.uniqueArray(pick('main', 'master', 'develop', 'release/1.0', 'release/2.0', 'feature/x'), {maxLength: 5}), {freq: 4}),
      tags: fc.option(fc.uniqueArray(pick('v1.0.0', 'v1.1.0', 'v2.0.0-rc', 'nightly'), {maxLength: 4}), {freq: 4}),
    }),
  )
  return fc.record({
    projects: fc.array(fc.tuple(fc.oneof(generated('legacy'), generated('current')), fc.nat(4), fc.boolean(), repository), {minLength: 1, maxLength: 4}),
    roles: fc.array(role, {maxLength: 4}),
    branches: fc.array(pick('main', 'develop', 'release/1.0', 'feature/x', 'release/**'), {maxLength: 2}),
    tags: fc.array(pick('v1.0.0', 'v2.0.0-rc', 'v1.*'), {maxLength: 2}),
    semantics: pick<'first-match' | 'merged'>('first-match', 'merged'),
  })
}

export const world = worldOf(true)
export const wellFormedWorld = worldOf(false)

export type World = typeof world extends fc.Arbitrary<infer W> ? W : never

/**
 * The model of a world: project i+1's parent is an earlier project or none, project 1 and those
 * marked are audited (the others are ancestors only). `raws`, `roles` and `repositories` replace the
 * world's payloads (same count of projects), e.g. with a changed copy.
 */
export async function modelOf(
  w: World,
  raws: unknown[] = w.projects.map(([p]) => p.raw),
  roles: unknown[] = w.roles,
  repositories: Array<RepositoryInfo | null> = w.projects.map(([, , , r]) => r),
): Promise<AuditModel> {
  const projectsById = new Map<number, Project>()
  const audited: Project[] = []
  for (const [index, [, parentChoice, isAudited]] of w.projects.entries()) {
    const id = index + 1
    const parentId = parentChoice > 0 && parentChoice < id ? parentChoice : null
    const path = parentId ? `${projectsById.get(parentId)!.path}/p${id}` : `p${id}`
    const ingested = await ingestProjectSetting(raws[index], {id, path})
    const project: Project = {id, path, name: `p${id}`, parentId, setting: ingested.setting, raw: ingested.raw, repository: repositories[index] ?? null}
    projectsById.set(id, project)
    if (isAudited || index === 0) audited.push(project)
  }
  const ingestedRoles = await ingestRoles(roles)
  return {server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}, projects: audited, projectsById, roles: ingestedRoles.roles, rolesRaw: ingestedRoles.raw, errors: []}
}

export function settingsOf(w: World): AuditSettings {
  return {branches: w.branches, tags: w.tags, allowedAdminRoles: ['Project Owner'], protectionSemantics: w.semantics}
}
