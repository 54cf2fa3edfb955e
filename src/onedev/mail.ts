/**
 * The mail service and the service desk as OneDev uses them.
 *
 * Mail in clear: an SMTP connection whose SSL setting is `SmtpWithoutSsl` (no TLS at all: v16.5.6
 * server-core/src/main/java/io/onedev/server/model/support/administration/mailservice/SmtpWithoutSsl.java:24-27
 * sets only the port) or, on 8.x, `enableStartTLS: false` (v8.0.0
 * server-core/src/main/java/io/onedev/server/mail/DefaultMailManager.java:243); an IMAP connection
 * whose SSL setting is `ImapWithoutSsl` (ImapWithoutSsl.java:24-27) or, on 8.x, `enableSSL: false`
 * (DefaultMailManager.java:945). The password of the account and every message (password reset and
 * invitation links among them) then cross the network in clear. Gmail and Office 365 connectors use
 * fixed hosts over TLS and have no such setting.
 *
 * The service desk: mail to a project's service desk address (or `system+<project path>@…`) opens an
 * issue in that project, from anyone (v16.5.6 server-core/src/main/java/io/onedev/server/mail/DefaultMailService.java:285-294,
 * 460-470; the sender needs no account: :773-776). The issue takes the first issue creation entry
 * that matches the project (and, up to 11.6.5, the sender): its `confidential` decides whether only
 * those who may read confidential issues see it (v16.5.6 ServiceDeskSetting.java:54-66,
 * DefaultMailService.java:784-785; v8.0.0 ServiceDeskSetting.java:111-131). Up to 11.5.0 a sender
 * without an account also needs a sender authorization for the project, the first that matches the
 * sender (v8.0.0 ServiceDeskSetting.java:83-95, SenderAuthorization.java:82-86,
 * server-core/src/main/java/io/onedev/server/mail/DefaultMailManager.java:362-370, 514-517).
 * Empty sender patterns mean any sender (`*`), empty project patterns any project (`**`).
 */
import type {IssueCreationEntry, MailConnection, MailService, ServiceDesk} from '../model/mail-data.js'
import {pathMatcher, stringMatcher} from './matchers.js'
import {matchesArbitraryNames, tryParsePatternSet} from './pattern-set.js'

export const SMTP_WITHOUT_SSL = 'SmtpWithoutSsl'
export const IMAP_WITHOUT_SSL = 'ImapWithoutSsl'

export interface PlainConnection {
  protocol: 'SMTP' | 'IMAP'
  connection: MailConnection
}

/** The connections of the mail service that carry the password and the mail in clear. */
export function plaintextConnections(mail: MailService): PlainConnection[] {
  const out: PlainConnection[] = []
  if (mail.smtp && (mail.smtp.sslType === SMTP_WITHOUT_SSL || mail.smtp.tls === false)) out.push({protocol: 'SMTP', connection: mail.smtp})
  if (mail.imap && (mail.imap.sslType === IMAP_WITHOUT_SSL || mail.imap.tls === false)) out.push({protocol: 'IMAP', connection: mail.imap})
  return out
}

/** An address no sender pattern names: only wildcards match it. */
const PROBE_ADDRESS = 'zq-onedev-audit-probe@zq-onedev-audit-probe.invalid'

/** Whether a sender pattern set admits a sender it does not name (null: any sender). Unparsable text admits nobody (the server refuses to save it). */
function admitsAnySender(patterns: string | null): boolean {
  if (patterns === null) return true
  const set = tryParsePatternSet(patterns)
  return set !== null && set.matches(PROBE_ADDRESS, stringMatcher)
}

/** Whether a project pattern set admits projects it does not name (null: any project). */
function admitsAnyProject(patterns: string | null): boolean {
  if (patterns === null) return true
  const set = tryParsePatternSet(patterns)
  return set !== null && matchesArbitraryNames(set, pathMatcher)
}

/**
 * The issue creation entry that mail from any outsider reaches for projects the service desk does not
 * name (every project but those earlier entries name), when it opens issues that are not
 * confidential; null when there is none: the service desk names the projects it serves, up to 11.5.0
 * outsiders are not authorized for every project, or the issues it opens are confidential.
 */
export function openServiceDeskEntry(desk: ServiceDesk): IssueCreationEntry | null {
  if (desk.senderAuthorizations !== null) {
    const authorization = desk.senderAuthorizations.find((entry) => admitsAnySender(entry.senderEmails))
    if (!authorization || !admitsAnyProject(authorization.authorizedProjects)) return null
  }
  const entry = desk.entries.find((candidate) => admitsAnySender(candidate.senderEmails) && admitsAnyProject(candidate.applicableProjects))
  return entry && entry.confidential === false ? entry : null
}
