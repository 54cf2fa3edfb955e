/**
 * All protection rules over the hand-written payload fixtures of both generations, ingested the way
 * a scan ingests them: findings are pinned, and every pointer must resolve in the redacted payload.
 */
import {readFileSync} from 'node:fs'

import {describe, expect, it} from 'vitest'

import {evaluate} from '../../../src/engine/evaluate.js'
import type {AuditSettings} from '../../../src/engine/rule.js'
import {ingestProjectSetting} from '../../../src/model/ingest.js'
import type {Project} from '../../../src/model/types.js'
import buildNotRequired from '../../../rules/branch-protection/build-not-required.js'
import deletionAllowed from '../../../rules/branch-protection/deletion-allowed.js'
import disabledRule from '../../../rules/branch-protection/disabled-rule.js'
import forcePushAllowed from '../../../rules/branch-protection/force-push-allowed.js'
import reviewNotRequired from '../../../rules/branch-protection/review-not-required.js'
import shadowedRule from '../../../rules/branch-protection/shadowed-rule.js'
import signatureNotRequired from '../../../rules/branch-protection/signature-not-required.js'
import unprotectedBranch from '../../../rules/branch-protection/unprotected-branch.js'
import userBypass from '../../../rules/branch-protection/user-bypass.js'
import buildspecUnprotected from '../../../rules/file-protection/buildspec-unprotected.js'
import tagDeletionAllowed from '../../../rules/tag-protection/deletion-allowed.js'
import tagSignatureNotRequired from '../../../rules/tag-protection/signature-not-required.js'
import unprotectedTags from '../../../rules/tag-protection/unprotected-tags.js'
import updateAllowed from '../../../rules/tag-protection/update-allowed.js'
import {model} from '../../helpers/model-builders.js'
import {DEFAULT_SETTINGS, expectPointersResolve} from '../../helpers/rule-tester.js'

const rules = [
  unprotectedBranch, forcePushAllowed, deletionAllowed, signatureNotRequired, reviewNotRequired, buildNotRequired,
  userBypass, shadowedRule, disabledRule, buildspecUnprotected, unprotectedTags, updateAllowed, tagDeletionAllowed, tagSignatureNotRequired,
]

async function fixtureProject(generation: 'legacy' | 'current'): Promise<Project> {
  const payload = JSON.parse(readFileSync(`test/fixtures/${generation}/setting-full.json`, 'utf8'))
  const ref = {id: 42, path: 'acme/app'}
  const {raw, setting, errors} = await ingestProjectSetting(payload, ref)
  expect(errors).toEqual([])
  return {...ref, name: 'app', parentId: null, setting, raw}
}

function run(project: Project, settings: Partial<AuditSettings>) {
  const testModel = model({projects: [project]})
  const {findings, errors} = evaluate(testModel, rules.map((rule) => ({rule, options: {}})), {...DEFAULT_SETTINGS, ...settings})
  expect(errors).toEqual([])
  expectPointersResolve(findings, {name: 'fixture', model: testModel})
  return findings.map((f) => `${f.severity} ${f.ruleId} ${f.subject} ${f.pointer}`)
}

const settings = {branches: ['main', 'develop', 'hotfix/1'], tags: ['v1.0.0']}

const LEGACY = [
  'high branch-protection/force-push-allowed develop /branchProtections/1/preventForcedPush',
  'high branch-protection/unprotected-branch hotfix/1 /branchProtections',
  'high branch-protection/user-bypass main /branchProtections/0/userMatch',
  'high file-protection/buildspec-unprotected develop /branchProtections/1/fileProtections',
  'medium branch-protection/review-not-required develop /branchProtections/1/reviewRequirement',
  'medium branch-protection/signature-not-required develop /branchProtections/1/signatureRequired',
  'low branch-protection/build-not-required develop /branchProtections/1/jobNames',
  'low tag-protection/signature-not-required v* /tagProtections/0/signatureRequired',
  'info branch-protection/disabled-rule hotfix/* /branchProtections/2/enabled',
]

describe('protection rules on the payload fixtures', () => {
  it('legacy payload, first-match', async () => {
    expect(run(await fixtureProject('legacy'), {...settings, protectionSemantics: 'first-match'})).toEqual(LEGACY)
  })

  it('legacy payload, merged: the same answers (no protection overlaps another for these branches)', async () => {
    expect(run(await fixtureProject('legacy'), {...settings, protectionSemantics: 'merged'})).toEqual(LEGACY)
  })

  it('current payload, first-match: release-bots fall through to the ** protection, admin to none', async () => {
    expect(run(await fixtureProject('current'), {...settings, protectionSemantics: 'first-match'})).toEqual([
      'high branch-protection/force-push-allowed develop /branchProtections/1/preventForcedPush',
      'high branch-protection/user-bypass hotfix/1 /branchProtections/3/userMatch',
      'high branch-protection/user-bypass main /branchProtections/3',
  'high file-protection/buildspec-unprotected develop /branchProtections/1/fileProtections',
  'high file-protection/buildspec-unprotected hotfix/1 /branchProtections/3/fileProtections',
  'medium branch-protection/deletion-allowed hotfix/1 /branchProtections/3/preventDeletion',
  'medium branch-protection/review-not-required develop /branchProtections/1/reviewRequirement',
  'medium branch-protection/review-not-required hotfix/1 /branchProtections/3/reviewRequirement',
  'medium branch-protection/signature-not-required develop /branchProtections/1/commitSignatureRequired',
  'medium branch-protection/signature-not-required hotfix/1 /branchProtections/3/commitSignatureRequired',
  'low branch-protection/build-not-required develop /branchProtections/1/jobNames',
  'low branch-protection/build-not-required hotfix/1 /branchProtections/3/jobNames',
  'low tag-protection/signature-not-required v* /tagProtections/0/commitSignatureRequired',
  'info branch-protection/disabled-rule hotfix/* /branchProtections/2/enabled',
    ])
  })

  it('current payload, merged: the ** protection also prevents forced pushes on develop, except for admin', async () => {
    expect(run(await fixtureProject('current'), {...settings, protectionSemantics: 'merged'})).toEqual([
      'high branch-protection/user-bypass develop /branchProtections/1',
      'high branch-protection/user-bypass hotfix/1 /branchProtections/3/userMatch',
      'high branch-protection/user-bypass main /branchProtections/3',
  'high file-protection/buildspec-unprotected develop /branchProtections/1/fileProtections',
  'high file-protection/buildspec-unprotected hotfix/1 /branchProtections/3/fileProtections',
  'medium branch-protection/deletion-allowed hotfix/1 /branchProtections/3/preventDeletion',
  'medium branch-protection/review-not-required develop /branchProtections/1/reviewRequirement',
  'medium branch-protection/review-not-required hotfix/1 /branchProtections/3/reviewRequirement',
  'medium branch-protection/signature-not-required develop /branchProtections/1/commitSignatureRequired',
  'medium branch-protection/signature-not-required hotfix/1 /branchProtections/3/commitSignatureRequired',
  'low branch-protection/build-not-required develop /branchProtections/1/jobNames',
  'low branch-protection/build-not-required hotfix/1 /branchProtections/3/jobNames',
  'low tag-protection/signature-not-required v* /tagProtections/0/commitSignatureRequired',
  'info branch-protection/disabled-rule hotfix/* /branchProtections/2/enabled',
    ])
  })
})
