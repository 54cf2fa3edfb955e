/**
 * A loopback OneDev server loaded with the canary fixtures: a small hierarchy of projects in both
 * payload generations, and the roles. Used by the CLI tests and to regenerate examples/.
 *
 *   acme (#1)            root; a strict protection of main that children inherit
 *   ├── acme/app (#2)    the full current (16.x) fixture; default branch `master`
 *   └── acme/empty (#4)  no settings of its own: inherits acme's; repository not initialized (204)
 *   legacy/tool (#3)     the full legacy (8.0.x) fixture; default branch `develop`, sent as a JSON string
 *
 * Access data (test/fixtures/access/access.json): anonymous access and open sign-up on, the default
 * group Everyone (may create root projects, Issue Reporter on acme), groups Administrators (alice,
 * ci-bot, helper), core-devs (bob, disabled carol; Code Writer on acme), release-bots (ci-bot; Release
 * Bot on acme/app); base roles Code Reader on acme and Code Writer on legacy/tool; dave owns acme/app.
 * A canary sits in every secret or personal field of the users and the security setting.
 *
 * and the administration endpoints of server/admin-current.json (job executors, groovy scripts, the
 * system and security settings, an LDAP authenticator, SSO providers, groups, users and their access
 * tokens, agents and agent tokens, the mail service, the service desk), with a canary in every secret
 * field. The agents, tokens, mail service and service desk are in the shapes of v16.5.6 (agents and
 * tokens: server-core/src/main/java/io/onedev/server/model/Agent.java:102-136, AgentToken.java:24-25;
 * the mail service: server-plugin/server-plugin-mail-smtpimap/src/main/java/io/onedev/server/plugin/mail/smtpimap/SmtpImapConnector.java:26-40
 * with no `@type` at the root; the service desk: server-core/src/main/java/io/onedev/server/model/support/administration/ServiceDeskSetting.java:32,
 * IssueCreationSetting.java:28-32; test/helpers/server-payloads.ts says more); server/admin-legacy.json
 * holds them as v8.0.4 (`/settings/mail`: OtherMailSetting.java:18-30; Agent.java:68-101; ServiceDeskSetting.java:35-39)
 * and v11.6.16 write them (SmtpImapMailService.java:26-38; Agent.java:84-114; IssueCreationSetting.java:28-32).
 * It says it is OneDev 16.5.6 (GET /version/server).
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {FIXTURES_DIR} from './canaries.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from './onedev-server.js'

export function fixture(path: string): any {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, path), 'utf8'))
}

/** What the fixture server answers at GET /version/server. */
export const FIXTURE_VERSION = '16.5.6'

export const PARENT_SETTING = {
  branchProtections: [
    {
      enabled: true,
      branches: 'main',
      userMatch: 'anyone',
      preventForcedPush: true,
      preventDeletion: true,
      preventCreation: true,
      commitSignatureRequired: true,
      reviewRequirement: 'group(core-devs):2',
      jobNames: ['ci'],
      fileProtections: [],
    },
  ],
  tagProtections: [{enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: true, commitSignatureRequired: true}],
  buildSetting: {jobSecrets: [], buildPreservations: []},
  webHooks: [],
  contributedSettings: [],
}

export const EMPTY_SETTING = {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}

export const FIXTURE_PROJECTS = [
  {id: 1, path: 'acme', name: 'acme', parentId: null},
  {id: 2, path: 'acme/app', name: 'app', parentId: 1},
  {id: 3, path: 'legacy/tool', name: 'tool', parentId: null},
  {id: 4, path: 'acme/empty', name: 'empty', parentId: 1},
]

/** What GET /repositories/{id}/default-branch, /branches and /tags answer. */
export const FIXTURE_REPOSITORIES = {
  1: {defaultBranch: 'main', branches: ['main', 'release/1.x'], tags: ['v1.0.0', 'v1.1.0']},
  2: {defaultBranch: 'master', branches: ['master', 'develop', 'release/2.x', 'feature/login'], tags: ['v2.0.0', 'v2.1.0', 'nightly-2026-11-01']},
  3: {defaultBranch: 'develop', branches: ['develop', 'main'], tags: [], jsonString: true},
  4: {defaultBranch: null},
}

/** Access data that grants nothing: every access endpoint answers, so no check is reported as not evaluated. */
export const EMPTY_ACCESS = {security: {enableSelfRegister: false}, groups: [], users: [], memberships: {}, groupAuthorizations: {}, baseAuthorizations: {}, groupProjectAuthorizations: {}, userProjectAuthorizations: {}}

/**
 * The administration endpoints of a hardened server: no server/* rule fires (a remote executor
 * scoped by a job match, https everywhere, a password policy, tokens that expire, agent tokens in
 * use, mail over TLS, no service desk).
 */
export const HARDENED_ADMIN: Record<string, unknown> = {
  '/settings/job-executors': [{'@type': 'RemoteDockerExecutor', enabled: true, name: 'agents', jobMatch: '"Project" is "acme/**" and on branch "main"', registryLogins: [], mountDockerSock: false}],
  '/settings/groovy-scripts': [{name: 'notify', content: ['return 1'], canBeUsedByBuildJobs: false, jobAuthorization: null}],
  '/settings/system': {serverUrl: 'https://onedev.acme.example', sshRootUrl: null, sessionTimeout: 30, useAvatarService: false},
  '/settings/security': {enableAnonymousAccess: false, enableSelfRegister: false, passwordPolicy: {minLength: 12, mustContainUppercase: true, mustContainLowercase: true, mustContainNumber: true, mustContainSpecial: true}, enforce2FA: true, corsAllowedOrigins: ['https://portal.acme.example']},
  '/settings/authenticator': null,
  '/sso-providers': [{id: 1, name: 'okta', defaultGroupId: null, connector: {'@type': 'OpenIdConnector', clientId: 'x', clientSecret: null, groupsClaim: null}}],
  '/groups': [{id: 1, name: 'Administrators', administrator: true, createRootProjects: false, enforce2FA: true}],
  '/groups/1/memberships': [],
  '/users': [{id: 1, disabled: false, type: 'ORDINARY', name: 'admin', fullName: null}],
  '/users/1/access-tokens': [{id: 1, name: 'cli', ownerId: 1, value: null, hasOwnerPermissions: true, createDate: '2026-01-01T00:00:00.000+00:00', expireDate: '2027-01-01T00:00:00.000+00:00'}],
  // Every agent token in use, mail over TLS, no service desk (204): the shapes of test/helpers/server-payloads.ts.
  '/agent-tokens': [{id: 1, value: null}],
  '/agents': [{id: 1, tokenId: 1, name: 'builder', ipAddress: '10.0.0.7', osName: 'Linux', osVersion: '6.8.0', osArch: 'amd64', cpuCount: 8, paused: false, online: true}],
  '/settings/mail-service': {smtpHost: 'mail.acme.example', sslSetting: {'@type': 'SmtpImplicitSsl', trustAll: false, port: 465}, smtpUser: null, smtpPassword: null, systemAddress: 'onedev@acme.example', inboxPollSetting: null, concurrency: 2, timeout: 60},
  '/settings/service-desk': null,
}

const ACCESS_PATHS = /^\/(settings\/security|groups(\/\d+\/(memberships|authorizations))?|users(\/\d+)?)$/

/**
 * The administration payloads without the paths the access fixture serves, and an empty token list
 * for each of the access fixture's users that has none there (as a real server answers).
 */
function adminPayloads(admin: Record<string, unknown>, access: {users?: {id?: unknown}[]}): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(admin).filter(([path]) => !ACCESS_PATHS.test(path)))
  for (const user of access.users ?? []) {
    if (typeof user.id === 'number') out[`/users/${user.id}/access-tokens`] ??= []
  }
  return out
}

export function fixtureServerOptions(overrides: OneDevServerOptions = {}): OneDevServerOptions {
  return {
    roles: fixture('roles.json'),
    projects: FIXTURE_PROJECTS,
    settings: {1: PARENT_SETTING, 2: fixture('current/setting-full.json'), 3: fixture('legacy/setting-full.json'), 4: EMPTY_SETTING},
    repositories: FIXTURE_REPOSITORIES,
    access: fixture('access/access.json'),
    // The access fixture answers the security setting, groups, memberships and users; the
    // administration fixture the rest (executors, scripts, system, authenticator, SSO, tokens).
    admin: adminPayloads(fixture('server/admin-current.json'), fixture('access/access.json')),
    // The administration fixture is a 16.x server's (SSO providers, AI users).
    version: FIXTURE_VERSION,
    ...overrides,
  }
}

export function startFixtureServer(overrides: OneDevServerOptions = {}): Promise<OneDevServer> {
  return startOneDevServer(fixtureServerOptions(overrides))
}

/** The environment a user would set for this server. */
export function serverEnv(server: OneDevServer): Record<string, string> {
  return {ONEDEV_URL: server.url, ONEDEV_API_PREFIX: server.prefix, ONEDEV_USER: server.user, ONEDEV_TOKEN: server.secret}
}

/**
 * A server where every control a rule judges passes: one strictly protected project, the one role the
 * default allowedAdminRoles names, access that grants nothing, hardened administration settings. Only
 * role/unused finds something (nobody holds the role), and it evidences no control.
 */
export function cleanServerOptions(): OneDevServerOptions {
  return {
    roles: fixture('roles.json').filter((role: {name: string}) => role.name === 'Project Owner'),
    projects: [{id: 1, path: 'acme', name: 'acme', parentId: null}],
    settings: {
      1: {
        ...PARENT_SETTING,
        // Its required job `ci` must run on the merge as it will land (branch-protection/strict-builds-not-required).
        branchProtections: PARENT_SETTING.branchProtections.map((protection) => ({...protection, requireStrictBuilds: true})),
        // OneDev 8.0.4 and earlier send the build setting's action authorizations (the one control that needs
        // them is judged only there): v8.0.4 server-core/src/main/java/io/onedev/server/model/support/build/ProjectBuildSetting.java:43,
        // an abstract ActionAuthorization written with its simple class name as @type (ObjectMapperProvider's default
        // typing): v8.0.4 server-core/src/main/java/io/onedev/server/model/support/build/actionauthorization/CreateTagAuthorization.java:13
        // (tagNames :23), authorizedBranches: v8.0.4 server-core/src/main/java/io/onedev/server/model/support/build/actionauthorization/ActionAuthorization.java:25.
        buildSetting: {...PARENT_SETTING.buildSetting, actionAuthorizations: [{'@type': 'CreateTagAuthorization', authorizedBranches: 'main', tagNames: 'v*'}]},
      },
    },
    repositories: {1: {defaultBranch: 'main', branches: ['main'], tags: ['v1.0.0']}},
    access: EMPTY_ACCESS,
    admin: HARDENED_ADMIN,
  }
}
