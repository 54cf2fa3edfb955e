/**
 * OneDev's answers to the endpoints issue 34 reads (agents and their tokens, the mail service, the
 * service desk, AI users, the default groups of SSO providers and of the authenticator), in the
 * shapes its Jackson writes at each version, read in its source (theonedev/onedev). Paths are
 * shortened: `core/` = `server-core/src/main/java/io/onedev/server/`.
 *
 * How Jackson writes them: fields (visibility FIELD ANY), default typing `@type` with the simple class
 * name on a declared type that is abstract or an interface (v16.5.6 core/util/jackson/ObjectMapperProvider.java:109-122),
 * `@class` with the full name on a class that carries `@JsonTypeInfo(use=Id.CLASS)` (the authenticator),
 * a `@ManyToOne`/`@JoinColumn` entity as `<field>Id` (v16.5.6 core/util/jackson/hibernate/HibernateAnnotationIntrospector.java:34-35).
 * A setting's root carries no `@type`: its resource method's return type is not generic, so Jersey's
 * Jackson provider writes it as its runtime class, a concrete one (inferred from jackson-jaxrs-base;
 * OneDev's typer checked with jackson-databind 2.18.2).
 */

// ------------------------------------------------------------------ agents and tokens

/** `AgentToken` {id, value} (v16.5.6 core/model/AgentToken.java:24-25; v8.0.0 the same class, `agents` @OneToMany not written :25-26). */
export const agentToken = (id: number, value: string) => ({id, value})

/** `Agent` at v16.5.6 (core/model/Agent.java:102-136; `tokenId` from `@OneToOne @JoinColumn token` :102-104; `online` from `@JsonProperty isOnline` :225-226). */
export const agent16 = (id: number, tokenId: number, name: string) => ({id, tokenId, name, ipAddress: '10.0.0.7', osName: 'Linux', osVersion: '6.8.0', osArch: 'amd64', cpuCount: 8, paused: false, online: true})

/** `Agent` at v8.0.0 (core/model/Agent.java:68-101: `@ManyToOne @JoinColumn token`, `cpus`, `temporal`, `paused`, `lastUsedDate`; `online` is transient). */
export const agent8 = (id: number, tokenId: number, name: string, temporal = false) => ({id, tokenId, name, ipAddress: '10.0.0.7', osName: 'Linux', osVersion: '5.15.0', osArch: 'amd64', cpus: 4, temporal, paused: false, lastUsedDate: '2023-02-01T10:00:00.000+00:00'})

// ------------------------------------------------------------------ mail

export interface MailSecrets {
  smtpPassword: string
  imapPassword: string
}

/**
 * `SmtpImapConnector` at v16.5.6 (server-plugin/server-plugin-mail-smtpimap/.../SmtpImapConnector.java:26-40;
 * `InboxPollSetting` :18-26 of its own file). `sslSetting` is an `SmtpSslSetting` (interface: `@type`):
 * `SmtpExplicitSsl` {trustAll, port 587}, `SmtpImplicitSsl` {trustAll, port 465}, `SmtpWithoutSsl` {port 25}
 * (core/model/support/administration/mailservice/SmtpExplicitSsl.java:12, SmtpWithSsl.java:15, SmtpWithoutSsl.java:12);
 * the inbox's `ImapSslSetting`: `ImapImplicitSsl` {trustAll, port 993}, `ImapExplicitSsl` {trustAll, port 143}, `ImapWithoutSsl` {port 143}.
 */
export function smtpImapConnector16(smtp: 'SmtpExplicitSsl' | 'SmtpImplicitSsl' | 'SmtpWithoutSsl', imap: 'ImapImplicitSsl' | 'ImapExplicitSsl' | 'ImapWithoutSsl' | null, secrets: MailSecrets) {
  return {
    smtpHost: 'mail.acme.example',
    sslSetting: sslSetting(smtp),
    smtpUser: 'onedev@acme.example',
    smtpPassword: secrets.smtpPassword,
    systemAddress: 'onedev@acme.example',
    inboxPollSetting: imap === null ? null : {imapHost: 'imap.acme.example', sslSetting: sslSetting(imap), imapUser: 'onedev@acme.example', imapPassword: secrets.imapPassword, pollInterval: 60},
    concurrency: 2,
    timeout: 60,
  }
}

/** `SmtpImapMailService` at v10.0.0 (server-plugin/server-plugin-mailservice-smtpimap/.../SmtpImapMailService.java:27-39, InboxPollSetting.java:20-30: `additionalTargetAddresses`, no `concurrency`). */
export function smtpImapMailService10(smtp: 'SmtpExplicitSsl' | 'SmtpWithoutSsl', imap: 'ImapImplicitSsl' | 'ImapWithoutSsl', secrets: MailSecrets) {
  const {concurrency: _, inboxPollSetting, ...rest} = smtpImapConnector16(smtp, imap, secrets)
  return {...rest, inboxPollSetting: {...inboxPollSetting!, additionalTargetAddresses: []}}
}

function sslSetting(type: string) {
  if (type.endsWith('WithoutSsl')) return {'@type': type, port: type.startsWith('Smtp') ? 25 : 143}
  const port = {SmtpExplicitSsl: 587, SmtpImplicitSsl: 465, ImapImplicitSsl: 993, ImapExplicitSsl: 143}[type]
  return {'@type': type, trustAll: false, port}
}

/**
 * `OtherMailSetting` at v8.0.0, `GET /settings/mail` (core/model/support/administration/mailsetting/OtherMailSetting.java:18-30,
 * OtherInboxPollSetting.java:13-21 with `pollInterval` from InboxPollSetting.java:14; `timeout` from MailSetting.java:17).
 */
export function otherMailSetting8(enableStartTLS: boolean, enableSSL: boolean | null, secrets: MailSecrets) {
  return {
    timeout: 60,
    smtpHost: 'mail.acme.example',
    smtpPort: enableStartTLS ? 587 : 25,
    smtpUser: 'onedev@acme.example',
    smtpPassword: secrets.smtpPassword,
    emailAddress: 'onedev@acme.example',
    otherInboxPollSetting: enableSSL === null ? null : {pollInterval: 60, imapHost: 'imap.acme.example', imapPort: enableSSL ? 993 : 143, imapUser: 'onedev@acme.example', imapPassword: secrets.imapPassword, enableSSL},
    enableStartTLS,
  }
}

/** `GmailConnector` at v16.5.6 (server-plugin/server-plugin-mail-gmail/.../GmailConnector.java:37-51; its InboxPollSetting.java:13). */
export const gmailConnector16 = (clientSecret: string, refreshToken: string) => ({
  clientId: '1234-acme.apps.googleusercontent.com',
  clientSecret,
  accountName: 'onedev@acme.example',
  refreshToken,
  systemAddress: 'onedev@acme.example',
  inboxPollSetting: {pollInterval: 60},
  concurrency: 2,
  timeout: 60,
})

/** `Office365Connector` at v16.5.6 (server-plugin/server-plugin-mail-office365/.../Office365Connector.java:33-49). */
export const office365Connector16 = (clientSecret: string, refreshToken: string) => ({
  clientId: '00000000-acme-client',
  tenantId: '00000000-acme-tenant',
  clientSecret,
  userPrincipalName: 'onedev@acme.example',
  refreshToken,
  systemAddress: 'onedev@acme.example',
  inboxPollSetting: null,
  timeout: 60,
  concurrency: 2,
})

/** `GmailSetting` at v8.0.0 (core/model/support/administration/mailsetting/GmailSetting.java:31-39). */
export const gmailSetting8 = (clientSecret: string, refreshToken: string) => ({timeout: 60, clientId: '1234-acme.apps.googleusercontent.com', clientSecret, accountName: 'onedev@acme.example', refreshToken, inboxPollSetting: null})

// ------------------------------------------------------------------ service desk

/** `IssueCreationSetting` at v16.5.6 {applicableProjects, confidential (default true), issueFields} (core/model/support/administration/IssueCreationSetting.java:28-32). */
export const issueCreation16 = (applicableProjects: string | null, confidential: boolean) => ({applicableProjects, confidential, issueFields: []})

/** `ServiceDeskSetting` at v16.5.6 {issueCreationSettings} (core/model/support/administration/ServiceDeskSetting.java:32). */
export const serviceDesk16 = (...entries: ReturnType<typeof issueCreation16>[]) => ({issueCreationSettings: entries})

/** `IssueCreationSetting` at v8.0.0 {senderEmails, applicableProjects, confidential (default false), issueFields} (IssueCreationSetting.java:35-41). */
export const issueCreation8 = (senderEmails: string | null, applicableProjects: string | null, confidential: boolean) => ({senderEmails, applicableProjects, confidential, issueFields: []})

/** `SenderAuthorization` at v8.0.0 {senderEmails, authorizedProjects, authorizedRoleName} (core/model/support/administration/SenderAuthorization.java:27-31). */
export const senderAuthorization8 = (senderEmails: string | null, authorizedProjects: string | null, authorizedRoleName = 'Issue Reporter') => ({senderEmails, authorizedProjects, authorizedRoleName})

/** `ServiceDeskSetting` at v8.0.0 {senderAuthorizations, projectDesignations, issueCreationSettings} (ServiceDeskSetting.java:35-39; ProjectDesignation.java:21-23). */
export const serviceDesk8 = (senderAuthorizations: ReturnType<typeof senderAuthorization8>[], ...entries: ReturnType<typeof issueCreation8>[]) => ({
  senderAuthorizations,
  projectDesignations: [{senderEmails: null, project: 'support'}],
  issueCreationSettings: entries,
})

// ------------------------------------------------------------------ users

/**
 * `UserData` of `GET /users` at v16.5.6 {id, disabled, type, name, fullName, notifyOwnEvents, aiSetting}
 * (core/rest/resource/UserResource.java:109-120, 640-663): `aiSetting` only for AI users (`AiSetting`
 * {modelSetting {baseUrl, apiKey, name, timeoutSeconds}, entitleToAll, systemPrompt,
 * pullRequestAssigneeResponsibilities, proactive, maxLoopCount}: core/model/support/AiSetting.java:22-34,
 * AiModelSetting.java:45-54; `notifyOwnEvents` is left false for service accounts :116-117).
 */
export function aiUser16(id: number, name: string, entitleToAll: boolean, apiKey: string, disabled = false) {
  return {
    id,
    disabled,
    type: 'AI',
    name,
    fullName: null,
    notifyOwnEvents: false,
    aiSetting: {
      modelSetting: {baseUrl: 'https://api.openai.com/v1', apiKey, name: 'gpt-4.1', timeoutSeconds: 30},
      entitleToAll,
      systemPrompt: null,
      pullRequestAssigneeResponsibilities: ['FIX_FAILED_BUILDS', 'RESOLVE_MERGE_CONFLICTS'],
      proactive: false,
      maxLoopCount: 3,
    },
  }
}

/** An AI user as the listing of v13.1.3 – v15.1.6 writes it: `UserData` without `aiSetting` (v14.1.0 core/rest/resource/UserResource.java:586-606). */
export const aiUser14 = (id: number, name: string) => ({id, disabled: false, type: 'AI', name, fullName: null, notifyOwnEvents: false})

// ------------------------------------------------------------------ default groups

/** `SsoProvider` at v16.5.6 {id, name, defaultGroupId, connector} (core/model/SsoProvider.java:30-37; the connector an `SsoConnector`, `@type`). */
export const ssoProvider16 = (id: number, name: string, defaultGroupId: number | null, clientSecret: string) => ({
  id,
  name,
  defaultGroupId,
  connector: {'@type': 'OpenIdConnector', configurationDiscoveryUrl: `https://${name}.acme.example/.well-known/openid-configuration`, clientId: `${name}-client`, clientSecret, requestScopes: 'openid email profile', groupsClaim: null, buttonImageUrl: null},
})

/** An `SsoConnector` of `GET /settings/sso-connectors` at v8.0.0 – v12.0.8 {name, defaultGroup (a name), …} (v8.0.0 core/model/support/administration/sso/SsoConnector.java:17-19). */
export const ssoConnector8 = (name: string, defaultGroup: string | null, clientSecret: string) => ({
  '@type': 'OpenIdConnector',
  name,
  defaultGroup,
  configurationDiscoveryUrl: `https://${name}.acme.example/.well-known/openid-configuration`,
  clientId: `${name}-client`,
  clientSecret,
  requestScopes: 'openid email profile',
  groupsClaim: null,
  buttonImageUrl: null,
})

/**
 * The LDAP authenticator as OneDev writes it: `@class` with the full name (`@JsonTypeInfo(use=Id.CLASS)` on
 * `Authenticator`, v16.5.6 core/model/support/administration/authenticator/Authenticator.java:14, `defaultGroup` :19,
 * `timeout` :21; `LdapAuthenticator` server-plugin/server-plugin-authenticator-ldap/.../LdapAuthenticator.java).
 */
export const ldapAuthenticator = (defaultGroup: string | null, managerPassword: string) => ({
  '@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator',
  defaultGroup,
  timeout: 300,
  ldapUrl: 'ldaps://ldap.acme.example:636',
  authenticationRequired: true,
  managerDN: 'cn=onedev,dc=acme,dc=example',
  managerPassword,
  userSearchBases: ['ou=people,dc=acme,dc=example'],
  userSearchFilter: '(&(uid={0})(objectclass=person))',
  userFullNameAttribute: 'displayName',
  userEmailAttribute: 'mail',
  userSshKeyAttribute: null,
  groupRetrieval: {'@type': 'DoNotRetrieveGroups'},
})
