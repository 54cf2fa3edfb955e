/**
 * Findings about URLs name the endpoint by host only: no path, query value, user info or redaction
 * marker reaches a message or subject, whatever the (already redacted) URL in the model holds.
 */
import {describe, expect, it} from 'vitest'

import actionAuthorizationBroad from '../../../rules/build/action-authorization-broad.js'
import jobSecretBroad from '../../../rules/job-secret/broad-branches.js'
import jobSecretShadowed from '../../../rules/job-secret/shadowed-by-parent.js'
import credentialsInUrl from '../../../rules/notification/credentials-in-url.js'
import insecureWebhook from '../../../rules/notification/insecure-webhook.js'
import broadJobPrivilege from '../../../rules/role/broad-job-privilege.js'
import confidentialIssueAccess from '../../../rules/role/confidential-issue-access.js'
import overPrivileged from '../../../rules/role/over-privileged.js'
import webhookMissingSecret from '../../../rules/webhook/missing-secret.js'
import {canary, expectNoCanary} from '../../helpers/canaries.js'
import {model, project, role, urlFacts} from '../../helpers/model-builders.js'
import {runRule} from '../../helpers/rule-tester.js'

const RULES = [
  actionAuthorizationBroad,
  jobSecretBroad,
  jobSecretShadowed,
  credentialsInUrl,
  insecureWebhook,
  broadJobPrivilege,
  confidentialIssueAccess,
  overPrivileged,
  webhookMissingSecret,
]

/** URLs as they might look after redaction, and as they would look if redaction had missed something. */
const URLS = [
  'http://REDACTED:REDACTED@hooks.example.com/services/REDACTED?token=REDACTED',
  `http://${canary('user')}:${canary('password')}@hooks.example.com/${canary('path')}?access_token=${canary('query')}&x=${canary('other')}`,
  `https://hooks.example.com/api/webhooks/${canary('discord-path')}?sig=${canary('sig')}`,
]

function leakModel(url: string) {
  const facts = urlFacts(url)
  const parent = project({
    id: 10,
    path: 'acme',
    notifications: [{webhookUrl: url, channel: 'Slack', url: facts ? {...facts, secretPath: true} : null}],
    webHooks: [{postUrl: url, hasSecret: false, headerNames: ['X-Api-Key']}],
    jobSecrets: [{name: 'token', authorization: null}],
  })
  const child = project({
    id: 11,
    path: 'acme/app',
    parentId: 10,
    notifications: [{webhookUrl: url, channel: 'Discord'}],
    webHooks: [{postUrl: url, hasSecret: true}],
    jobSecrets: [{name: 'token', authorization: 'on branch "main"'}],
  })
  return model({projects: [child], ancestors: [parent], roles: [role({id: 2, name: 'Ops', manageBuilds: true, accessConfidentialIssues: true})]})
}

describe('URL findings show the host only', () => {
  for (const url of URLS) {
    it(`for ${url.slice(0, 40)}…`, () => {
      const findings = RULES.flatMap((rule) => runRule(rule, {name: 'leak', model: leakModel(url)}))
      const urlFindings = findings.filter((f) => f.ruleId.startsWith('notification/') || f.ruleId.startsWith('webhook/'))
      // every URL rule fired, so the check below is not vacuous
      const expected = ['notification/credentials-in-url', 'webhook/missing-secret', ...(url.startsWith('http:') ? ['notification/insecure-webhook'] : [])]
      expect(new Set(urlFindings.map((f) => f.ruleId))).toEqual(new Set(expected))
      for (const finding of urlFindings) expect(finding.subject).toBe('hooks.example.com')
      const text = findings.map((f) => `${f.subject}\n${f.message}`).join('\n')
      expectNoCanary(text)
      expect(text).not.toContain('REDACTED')
      expect(text).not.toContain('services/')
      expect(text).not.toContain('api/webhooks')
      expect(text).not.toContain('@hooks')
      expect(text).not.toMatch(/[?&][a-z_]+=/)
    })
  }
})
