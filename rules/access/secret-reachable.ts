/**
 * Principals who can get a job secret into a job whose build spec they control.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import type {PrincipalAccess, SecretRoute} from '../../src/onedev/access.js'
import {describePrincipalList} from '../support/access-findings.js'


const MAX_NAMED = 10

function how(route: SecretRoute): string {
  return route.how === 'push'
    ? `push a build spec change to branch "${route.branch}" without review or required builds`
    : `create a branch such as "${route.branch}" (creating a branch skips review and build checks)`
}

export default defineRule({
  meta: {
    id: 'access/secret-reachable',
    shortDescription: 'Someone can read a job secret by controlling the build spec of a job that receives it',
    fullDescription:
      'A job receives a job secret when the secret\'s authorization admits the build. Whoever can push a build spec change to a branch the authorization admits with no review or required build for them, ' +
      'or create a new branch it admits (creation skips review and build checks), writes the job that receives the secret and can print or send it. ' +
      'The rule names who and how, per secret (own and inherited). Running an existing job on such a branch is not reading it and is not reported. Critical when every logged-in user can.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'Secrets are handed to jobs, and jobs are defined by `.onedev-buildspec.yml` on the branch being built. Write that file on a branch the secret admits, and the secret is yours.',
      '',
      '## Fix',
      'Scope the secret\'s authorization to protected branches (*Project Settings → Build → Job Secrets*, e.g. `on branch "main"`), and protect those branches (*Branch Protection*: required reviewers or builds, prevent creation)',
      'for everyone who can write code, or remove code write from those principals.',
      '',
      '## Example',
      'Secret `deploy-key` authorized `on branch "**"`, group *Developers* with *Code Writer*: any developer creates branch `x`, adds a job that echoes the secret, and reads it.',
    ].join('\n'),
    tags: ['secrets', 'ci', 'access-control'],
    scope: 'project',
    requires: ['/roles', '/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations', '/settings/security', '/groups', '/groups/{id}/memberships', '/users', '/users/{id}', '/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, facts} = context
    const principals = facts.codeWriters
    if (!principals) return []
    // Per secret, the principals grouped by how they reach it.
    const bySecret = new Map<string, {route: SecretRoute; ways: Map<string, PrincipalAccess[]>; everyone: boolean}>()
    for (const principal of principals) {
      for (const route of facts.secretRoutes(principal)) {
        const entry = bySecret.get(route.secret.name) ?? {route, ways: new Map(), everyone: false}
        const way = how(route)
        entry.ways.set(way, [...(entry.ways.get(way) ?? []), principal])
        if (principal.kind === 'everyone') entry.everyone = true
        bySecret.set(route.secret.name, entry)
      }
    }
    const findings: FindingDraft[] = []
    for (const [name, {route, ways, everyone}] of bySecret) {
      const inherited = route.owner.id === project.id ? '' : ` (inherited from ${route.owner.path})`
      const shown = [...ways].map(([way, who]) => `${describePrincipalList(who, MAX_NAMED)} can ${way}`).join('; ')
      findings.push({
        subject: name,
        pointer: route.secret.authorization.pointer,
        ...(route.owner.id === project.id ? {} : {sourceProjectId: route.owner.id, key: `from:${route.owner.path}`}),
        ...(everyone ? {severity: 'critical' as const} : {}),
        message:
          `Job secret "${name}"${inherited} can be read by whoever writes the build spec of a job that receives it: ${shown}. ` +
          'Scope its authorization to protected branches and require reviews or builds (and prevent creation) on them for everyone with code write.',
      })
    }
    return findings
  },
})
