/**
 * The endpoints the audit reads beyond the contract's project settings and roles, as templates (how
 * a not-evaluated endpoint is named), by the family of checks that needs them: what the data sources
 * of src/api fetch, and what the not-evaluated notices are grouped by (src/engine/coverage.ts).
 */
import {SECURITY_KEY} from './access-data.js'
import type {RepositoryPart} from './types.js'

/** Default branches, branch and tag lists: each repository part from its own endpoint. */
export const REPOSITORY_ENDPOINTS: Readonly<Record<RepositoryPart, string>> = {
  'default-branch': '/repositories/{id}/default-branch',
  branches: '/repositories/{id}/branches',
  tags: '/repositories/{id}/tags',
}

/** The access model (issue 11): the security setting, groups, users and who holds which role where. */
export const ACCESS_ENDPOINTS = {
  security: `/${SECURITY_KEY}`,
  groups: '/groups',
  memberships: '/groups/{id}/memberships',
  groupAuthorizations: '/groups/{id}/authorizations',
  users: '/users',
  user: '/users/{id}',
  baseAuthorizations: '/projects/{id}/base-authorizations',
  groupProjectAuthorizations: '/projects/{id}/group-authorizations',
  userProjectAuthorizations: '/projects/{id}/user-authorizations',
} as const

/** Server hardening (issue 14): administration settings, administrators and access tokens. */
export const HARDENING_ENDPOINTS = {
  jobExecutors: '/settings/job-executors',
  groovyScripts: '/settings/groovy-scripts',
  system: '/settings/system',
  authenticator: '/settings/authenticator',
  ssoProviders: '/sso-providers',
  /** Servers up to 12.0.8 (v8.0.0 – v12.0.8), instead of /sso-providers (from 13.1.7; 12.0.9 to 13.1.6 offer neither). */
  ssoConnectors: '/settings/sso-connectors',
  security: `/${SECURITY_KEY}`,
  users: '/users',
  groups: '/groups',
  memberships: '/groups/{id}/memberships',
  accessTokens: '/users/{id}/access-tokens',
  /** Build agents and their tokens (issue 34): v8.0.0+, server-core/src/main/java/io/onedev/server/rest/AgentResource.java, AgentTokenResource.java. */
  agents: '/agents',
  agentTokens: '/agent-tokens',
  /** The mail connector (v10.0.0+; `MailService` up to v13.0.7, `MailConnector` from v13.0.8). */
  mailService: '/settings/mail-service',
  /** Servers 8.x (v8.0.0 – v8.6.13; there is no 9.x), instead of /settings/mail-service. */
  mail: '/settings/mail',
  serviceDesk: '/settings/service-desk',
} as const

/**
 * The per-project access endpoints, read for each audited project and its ancestors, with the checks
 * that need them (what a notice says was not evaluated where a project's answer is missing).
 */
export const PROJECT_ACCESS_ENDPOINTS = [
  {endpoint: ACCESS_ENDPOINTS.baseAuthorizations, checks: 'base roles of every logged-in user (and anonymous users)'},
  {endpoint: ACCESS_ENDPOINTS.groupProjectAuthorizations, checks: 'roles granted to groups'},
  {endpoint: ACCESS_ENDPOINTS.userProjectAuthorizations, checks: 'roles granted to users'},
] as const

export const ACCESS_MODEL_ENDPOINTS: readonly string[] = Object.values(ACCESS_ENDPOINTS)
export const SERVER_HARDENING_ENDPOINTS: readonly string[] = Object.values(HARDENING_ENDPOINTS)
