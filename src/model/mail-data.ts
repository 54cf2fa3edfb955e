/**
 * Typed views of the mail service and the service desk in the server data document (model.serverData,
 * redacted at ingest: the SMTP and IMAP passwords, OAuth client secrets and refresh tokens never reach
 * it). Read by src/api/mail-data.ts.
 *
 * The mail service, by generation. Nested abstract types get default typing's `@type` with the simple
 * class name (v16.5.6 server-core/src/main/java/io/onedev/server/util/jackson/ObjectMapperProvider.java:109-122);
 * the root carries none: the resource method's return type is not generic, so Jersey's Jackson provider
 * writes the answer as its runtime class, which is concrete (inferred from jackson-jaxrs-base's
 * ProviderBase, not OneDev's source; OneDev's typer checked with jackson-databind 2.18.2):
 * - v8.0.0 – v8.6.13, `GET /settings/mail` (v8.0.0 server-core/src/main/java/io/onedev/server/rest/SettingResource.java:119-125):
 *   `OtherMailSetting` {smtpHost, smtpPort, smtpUser, smtpPassword, emailAddress, otherInboxPollSetting
 *   {imapHost, imapPort, imapUser, imapPassword, enableSSL, pollInterval}, enableStartTLS, timeout}
 *   (v8.0.0 server-core/src/main/java/io/onedev/server/model/support/administration/mailsetting/OtherMailSetting.java:18-30,
 *   OtherInboxPollSetting.java:13-21); `GmailSetting`, `Office365Setting` (OAuth, fixed hosts over TLS).
 * - v10.0.0+, `GET /settings/mail-service` (v10.0.0 server-core/src/main/java/io/onedev/server/rest/resource/SettingResource.java:104-110;
 *   v16.5.6 the same file :126-133): `SmtpImapMailService` (to v13.0.7) or `SmtpImapConnector` (v13.0.8+)
 *   {smtpHost, sslSetting {"@type": SmtpExplicitSsl | SmtpImplicitSsl | SmtpWithoutSsl, port, trustAll},
 *   smtpUser, smtpPassword, systemAddress, inboxPollSetting {imapHost, sslSetting {"@type": ImapImplicitSsl |
 *   ImapExplicitSsl | ImapWithoutSsl, …}, imapUser, imapPassword, pollInterval}, …}
 *   (v16.5.6 server-plugin/server-plugin-mail-smtpimap/src/main/java/io/onedev/server/plugin/mail/smtpimap/SmtpImapConnector.java:26-36,
 *   InboxPollSetting.java:18-26; v10.0.0 server-plugin/server-plugin-mailservice-smtpimap/src/main/java/io/onedev/server/plugin/mailservice/smtpimap/SmtpImapMailService.java:27-37);
 *   `GmailConnector`, `Office365Connector` (OAuth, fixed hosts over TLS: v16.5.6
 *   server-plugin/server-plugin-mail-gmail/src/main/java/io/onedev/server/plugin/mail/gmail/GmailConnector.java:191).
 * A connection is recognised by its fields, never by the root's class: an SMTP leg by `smtpHost`, an
 * IMAP leg by `imapHost`. No mail service answers 204 (null).
 *
 * The service desk (`GET /settings/service-desk`, v8.0.0+; null/204: not enabled), by generation
 * (server-core/src/main/java/io/onedev/server/model/support/administration/ServiceDeskSetting.java, IssueCreationSetting.java):
 * - v8.0.0 – v11.5.0: {senderAuthorizations [{senderEmails, authorizedProjects, authorizedRoleName}],
 *   projectDesignations, issueCreationSettings [{senderEmails, applicableProjects, confidential (default
 *   false), issueFields}]} (v8.0.0 ServiceDeskSetting.java:35-39, IssueCreationSetting.java:35-41);
 * - v11.5.1 – v11.6.5: {defaultProjectSettings, issueCreationSettings [{senderEmails, applicableProjects,
 *   confidential (default true), issueFields}]};
 * - v11.6.6+: {issueCreationSettings [{applicableProjects, confidential (default true), issueFields}]}
 *   (v16.5.6 ServiceDeskSetting.java:32, IssueCreationSetting.java:28-32).
 */
import type {z} from 'zod'

import * as checks from './payload-checks.js'
import {hasOwn, parser} from './parser.js'
import {joinPointer} from './pointer.js'
import {typeOf} from './polymorphic.js'
import type * as S from './server-schemas.js'
import type {AuditModel, ServerData} from './types.js'

export const MAIL_SERVICE_KEY = 'settings/mail-service'
/** Servers 8.x. */
export const MAIL_KEY = 'settings/mail'
export const SERVICE_DESK_KEY = 'settings/service-desk'

type Model = Pick<AuditModel, 'serverData'>

/** One connection of the mail service to a mail server. */
export interface MailConnection {
  host: string | null
  /** `@type` of its `sslSetting` (v10.0.0+); null when it has none (8.x). */
  sslType: string | null
  /** v8.x: `enableStartTLS` (SMTP) or `enableSSL` (IMAP); null on later servers. */
  tls: boolean | null
  /** Where the deciding field sits: the `sslSetting`, or the 8.x flag. */
  pointer: string
}

export interface MailService {
  /** `/settings~1mail-service` or `/settings~1mail`. */
  pointer: string
  /** Sending; null when the connector has no SMTP host of its own (Gmail, Office 365). */
  smtp: MailConnection | null
  /** Checking the inbox; null when off, or done by Gmail or Office 365. */
  imap: MailConnection | null
}

export interface IssueCreationEntry {
  /** `/settings~1service-desk/issueCreationSettings/<index>`. */
  pointer: string
  /** Up to v11.6.5; null: any sender (also on later servers, which have no such key). */
  senderEmails: string | null
  /** null: any project. */
  applicableProjects: string | null
  /** null when the payload does not say. */
  confidential: boolean | null
}

export interface SenderAuthorization {
  pointer: string
  /** null: any sender. */
  senderEmails: string | null
  /** null: any project. */
  authorizedProjects: string | null
}

export interface ServiceDesk {
  /** `/settings~1service-desk`. */
  pointer: string
  /** In the server's order: for a sender and a project, the first matching entry applies. */
  entries: IssueCreationEntry[]
  /**
   * Up to v11.5.0: what a sender without an account may do (the first entry matching the sender
   * applies; none: such a sender opens no issue). null on later servers, where anyone may mail.
   */
  senderAuthorizations: SenderAuthorization[] | null
}

const MailSchema = parser<z.infer<typeof S.MailSchema>>(checks.isMail)
const ServiceDeskSchema = parser<z.infer<typeof S.ServiceDeskSchema>>(checks.isServiceDesk)

const blankToNull = (value: string | null | undefined): string | null => (value === null || value === undefined || value.trim() === '' ? null : value)

type Mail = z.infer<typeof S.MailSchema>

/** The document's key holding the mail service (the newer wins when both are there). */
function mailKey(data: ServerData): string | undefined {
  return [MAIL_SERVICE_KEY, MAIL_KEY].find((key) => hasOwn(data, key))
}

/** GET /settings/mail-service (or /settings/mail on 8.x): null when none is configured (204), undefined when not read or of another shape. */
export function mailServiceOf(model: Model): MailService | null | undefined {
  const data = model.serverData
  const key = data && mailKey(data)
  if (!data || key === undefined) return undefined
  const raw = data[key]
  if (raw === null) return null
  const parsed = MailSchema.safeParse(raw)
  if (!parsed.success) return undefined
  const pointer = joinPointer('', key)
  return {pointer, smtp: smtpOf(parsed.data, pointer), imap: imapOf(parsed.data, pointer)}
}

function smtpOf(mail: Mail, pointer: string): MailConnection | null {
  if (mail.smtpHost === undefined) return null
  const legacy = mail.sslSetting === undefined && mail.enableStartTLS !== undefined
  return {
    host: blankToNull(mail.smtpHost),
    sslType: typeOf(mail.sslSetting),
    tls: legacy ? (mail.enableStartTLS ?? null) : null,
    pointer: joinPointer(pointer, legacy ? 'enableStartTLS' : 'sslSetting'),
  }
}

function imapOf(mail: Mail, pointer: string): MailConnection | null {
  const current = mail.inboxPollSetting
  if (current && current.imapHost !== undefined) {
    return {host: blankToNull(current.imapHost), sslType: typeOf(current.sslSetting), tls: null, pointer: joinPointer(pointer, 'inboxPollSetting', 'sslSetting')}
  }
  const legacy = mail.otherInboxPollSetting
  if (legacy && legacy.imapHost !== undefined) {
    return {host: blankToNull(legacy.imapHost), sslType: null, tls: legacy.enableSSL ?? null, pointer: joinPointer(pointer, 'otherInboxPollSetting', 'enableSSL')}
  }
  return null
}

/** GET /settings/service-desk: null when the service desk is not enabled (204), undefined when not read or of another shape. */
export function serviceDeskOf(model: Model): ServiceDesk | null | undefined {
  const data = model.serverData
  if (!data || !hasOwn(data, SERVICE_DESK_KEY)) return undefined
  const raw = data[SERVICE_DESK_KEY]
  if (raw === null) return null
  const parsed = ServiceDeskSchema.safeParse(raw)
  if (!parsed.success) return undefined
  const pointer = joinPointer('', SERVICE_DESK_KEY)
  const entries = (parsed.data.issueCreationSettings ?? []).map((entry, index) => ({
    pointer: joinPointer(pointer, 'issueCreationSettings', index),
    senderEmails: blankToNull(entry.senderEmails),
    applicableProjects: blankToNull(entry.applicableProjects),
    confidential: entry.confidential ?? null,
  }))
  const authorizations = parsed.data.senderAuthorizations
  return {
    pointer,
    entries,
    senderAuthorizations:
      authorizations === undefined || authorizations === null
        ? null
        : authorizations.map((entry, index) => ({pointer: joinPointer(pointer, 'senderAuthorizations', index), senderEmails: blankToNull(entry.senderEmails), authorizedProjects: blankToNull(entry.authorizedProjects)})),
  }
}
