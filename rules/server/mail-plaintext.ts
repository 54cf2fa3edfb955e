/**
 * The mail service sends (SMTP) or reads (IMAP) mail without TLS: the account's password and every
 * message OneDev sends or reads cross the network in clear (src/onedev/mail.ts).
 */
import {defineRule} from '../../src/engine/rule.js'
import {mailServiceOf} from '../../src/model/mail-data.js'
import {plaintextConnections} from '../../src/onedev/mail.js'

export default defineRule({
  meta: {
    id: 'server/mail-plaintext',
    shortDescription: 'The mail service talks to the mail server without TLS',
    fullDescription:
      'Reports an SMTP/IMAP mail service whose SMTP SSL setting is *No SSL* (`SmtpWithoutSsl`), or whose incoming mail check uses IMAP with *No SSL* ' +
      '(`ImapWithoutSsl`); on OneDev 8.x, SMTP with *Enable SMTP StartTLS* off or IMAP with *Enable IMAP SSL* off. The connection is recognised by ' +
      'its fields (`smtpHost`, `inboxPollSetting.imapHost`), whatever the setting\'s class. Gmail and Office 365 connect over TLS and are never reported.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'OneDev logs in to the mail server with the account\'s password and sends every notification through it: password reset links,',
      'invitation links, issue and pull request contents, and, with the service desk, the mail of outsiders. Without TLS anyone on the path',
      'between OneDev and the mail server (a shared network, a compromised router) reads the password and those links, and can change the messages.',
      '',
      '## Fix',
      'In OneDev open *Administration → Mail Service*, set *SSL Setting* to *Explicit SSL (StartTLS)* (port 587) or *Implicit SSL* (port 465),',
      'and under *Check Incoming Email* the IMAP *SSL Setting* to *Implicit SSL* (port 993) or *Explicit SSL*; leave *Bypass Certificate Check*',
      'off (import the mail server\'s certificate instead). On OneDev 8.x (*Administration → Mail Settings*) turn on *Enable SMTP StartTLS* and *Enable IMAP SSL*.',
      '',
      '## In OneDev\'s source',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/rest/resource/SettingResource.java:126-133` (`GET /settings/mail-service`, from v10.0.0);',
      '  v8.0.0 `server-core/src/main/java/io/onedev/server/rest/SettingResource.java:118-125` (`GET /settings/mail`).',
      '- v16.5.6 `server-plugin/server-plugin-mail-smtpimap/src/main/java/io/onedev/server/plugin/mail/smtpimap/SmtpImapConnector.java:26-36`, `InboxPollSetting.java:18-26`;',
      '  `server-core/src/main/java/io/onedev/server/model/support/administration/mailservice/SmtpWithoutSsl.java:24-27`, `ImapWithoutSsl.java:24-27` (no TLS).',
      '- v8.0.0 `server-core/src/main/java/io/onedev/server/model/support/administration/mailsetting/OtherMailSetting.java:18-30`, `OtherInboxPollSetting.java:13-21`;',
      '  `server-core/src/main/java/io/onedev/server/mail/DefaultMailManager.java:243` (`mail.smtp.starttls.enable`), `:945` (`mail.imap.ssl.enable`).',
      '',
      '## Example',
      '```json',
      '{"smtpHost": "mail.acme.example", "sslSetting": {"@type": "SmtpWithoutSsl", "port": 25}, …}                    // reported',
      '{"smtpHost": "mail.acme.example", "sslSetting": {"@type": "SmtpExplicitSsl", "port": 587, "trustAll": false}, …} // fine',
      '{"smtpHost": "mail.acme.example", "enableStartTLS": false, …}                                                     // reported (8.x)',
      '```',
    ].join('\n'),
    tags: ['server', 'mail', 'tls', 'credentials'],
    scope: 'server',
    requires: ['/settings/mail-service or /settings/mail'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const mail = mailServiceOf(context.model)
    if (!mail) return []
    return plaintextConnections(mail).map(({protocol, connection}) => {
      const host = connection.host ?? 'the mail server'
      const what =
        protocol === 'SMTP'
          ? 'the SMTP password and every mail OneDev sends (password reset and invitation links among them) cross the network in clear'
          : 'the IMAP password and every mail OneDev reads (service desk mail and replies among them) cross the network in clear'
      const fix = protocol === 'SMTP' ? 'set SSL Setting to Explicit SSL (StartTLS) or Implicit SSL' : 'set the SSL Setting of Check Incoming Email to Implicit SSL or Explicit SSL'
      return {
        subject: `${protocol} ${host}`,
        message: `The mail service ${protocol === 'SMTP' ? 'sends mail' : 'checks incoming mail'} over ${protocol} to ${host} without TLS: ${what}. In Administration > Mail Service, ${fix}.`,
        pointer: connection.pointer,
        key: protocol,
      }
    })
  },
})
