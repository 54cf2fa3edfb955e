import rule from '../../../rules/server/mail-plaintext.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {gmailConnector16, gmailSetting8, office365Connector16, otherMailSetting8, smtpImapConnector16, smtpImapMailService10} from '../../helpers/server-payloads.js'
import {serverModel} from './helpers.js'

const secrets = {smtpPassword: 'smtp-pw', imapPassword: 'imap-pw'}

ruleTester(rule, {
  valid: [
    {name: '16.x: SMTP with explicit SSL, IMAP with implicit SSL', model: serverModel({'/settings/mail-service': smtpImapConnector16('SmtpExplicitSsl', 'ImapImplicitSsl', secrets)})},
    {name: '16.x: SMTP with implicit SSL, no inbox check', model: serverModel({'/settings/mail-service': smtpImapConnector16('SmtpImplicitSsl', null, secrets)})},
    {name: '16.x: Gmail and Office 365 (fixed hosts over TLS)', model: serverModel({'/settings/mail-service': gmailConnector16('s', 'r')})},
    {name: '16.x: Office 365', model: serverModel({'/settings/mail-service': office365Connector16('s', 'r')})},
    {name: 'no mail service (204)', model: serverModel({'/settings/mail-service': null})},
    {name: 'mail service not read', model: serverModel({})},
    {name: '8.0.0: StartTLS and IMAP SSL on', model: serverModel({'/settings/mail': otherMailSetting8(true, true, secrets)})},
    {name: '8.0.0: Gmail', model: serverModel({'/settings/mail': gmailSetting8('s', 'r')})},
  ],
  invalid: [
    {
      name: '16.x: SMTP and IMAP without SSL, each once with its host',
      model: serverModel({'/settings/mail-service': smtpImapConnector16('SmtpWithoutSsl', 'ImapWithoutSsl', secrets)}),
      findings: [
        {subject: 'IMAP imap.acme.example', severity: 'medium', pointer: '/settings~1mail-service/inboxPollSetting/sslSetting', messageIncludes: 'Check Incoming Email'},
        {subject: 'SMTP mail.acme.example', severity: 'medium', pointer: '/settings~1mail-service/sslSetting', messageIncludes: ['without TLS', 'password reset and invitation links', 'Administration > Mail Service']},
      ],
    },
    {
      name: '10.0.0 (SmtpImapMailService): IMAP without SSL only',
      model: serverModel({'/settings/mail-service': smtpImapMailService10('SmtpExplicitSsl', 'ImapWithoutSsl', secrets)}),
      findings: [{subject: 'IMAP imap.acme.example', pointer: '/settings~1mail-service/inboxPollSetting/sslSetting'}],
    },
    {
      name: '8.0.0 (GET /settings/mail): StartTLS off, IMAP SSL off',
      model: serverModel({'/settings/mail': otherMailSetting8(false, false, secrets)}),
      findings: [
        {subject: 'IMAP imap.acme.example', pointer: '/settings~1mail/otherInboxPollSetting/enableSSL'},
        {subject: 'SMTP mail.acme.example', pointer: '/settings~1mail/enableStartTLS'},
      ],
    },
  ],
})
