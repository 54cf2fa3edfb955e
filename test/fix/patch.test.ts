/** Edits, what they expect, conflicts, verification and undo records: the pure pieces applying is made of. */
import {describe, expect, it} from 'vitest'

import {applyEdit, applyPlanned, cloneJson, planEdits, PatchError, relocate, revertWhereHeld} from '../../src/fix/patch.js'
import {editProblem} from '../../src/fix/guard.js'
import {undoRecord} from '../../src/fix/undo.js'
import {differences} from '../../src/fix/verify.js'
import {redactDeep, secretsOf} from '../../src/model/redact.js'
import {branchProtection, currentSetting} from '../helpers/fix-builders.js'

const secret = 'CANARY-patch-secret-7f3a'

function payload(): any {
  return currentSetting({
    branchProtections: [branchProtection({branches: 'main', preventForcedPush: false}), branchProtection({branches: 'develop', preventForcedPush: false})],
    buildSetting: {jobSecrets: [{name: 'token', value: secret, authorization: 'on branch "**"', archived: false}], buildPreservations: [], unknownFutureKey: {kept: [1, null]}},
    webHooks: [{postUrl: `http://ci.internal/hook?token=${secret}`, eventTypes: ['CODE_PUSH'], secret, headers: [{name: 'X-Key', value: secret}]}],
  })
}

/** The plan of `edits`, made as the planner makes it: on the redacted payload. */
function plan(raw: unknown, edits: Parameters<typeof planEdits>[1]) {
  const planned = planEdits(redactDeep(raw), edits)
  if ('problem' in planned) throw new Error(planned.problem)
  return planned.edits
}

/** `edits` planned, applied to `raw`, and the undo record of the result read back as sent. */
function appliedWithUndo(raw: unknown, edits: Parameters<typeof planEdits>[1]) {
  const planned = plan(raw, edits)
  const applied = applyPlanned(raw, planned, editProblem)
  if (!('result' in applied)) throw new Error('not applied')
  return {result: applied.result, record: undoRecord({id: 1, path: 'acme/app'}, planned, applied.result, 'verified')}
}

describe('applying a plan to the real payload', () => {
  it('changes only the planned field: secrets, unknown keys and nulls come through as they were', () => {
    const raw = payload()
    const edits = plan(raw, [{op: 'replace', path: '/branchProtections/1/preventForcedPush', value: true}])
    const applied = applyPlanned(raw, edits, editProblem)
    if (!('result' in applied)) throw new Error('not applied')
    const expected = payload()
    expected.branchProtections[1].preventForcedPush = true
    expect(applied.result).toEqual(expected)
    expect(JSON.stringify(applied.result)).toContain(JSON.stringify(`http://ci.internal/hook?token=${secret}`))
    expect(raw).toEqual(payload())
  })

  it('the same old value at the same pointer in another protection (the list was reordered) is a conflict', () => {
    const raw = payload()
    const edits = plan(raw, [{op: 'replace', path: '/branchProtections/1/preventForcedPush', value: true}])
    const reordered = payload()
    reordered.branchProtections.reverse()
    // `/branchProtections/1/preventForcedPush` is false in both: only the whole protection tells them apart.
    expect(applyPlanned(reordered, edits, editProblem)).toEqual({conflict: {path: '/branchProtections/1', value: expect.objectContaining({branches: 'develop'})}, edit: edits[0]})
  })

  it('an insertion expects the whole list as the plan saw it', () => {
    const raw = payload()
    const edits = plan(raw, [{op: 'add', path: '/branchProtections/0', value: branchProtection({branches: 'release'})}])
    const changed = payload()
    changed.branchProtections[1].userMatch = 'user(bob)'
    expect(applyPlanned(changed, edits, editProblem)).toMatchObject({conflict: {path: '/branchProtections'}})
    expect('result' in applyPlanned(payload(), edits, editProblem)).toBe(true)
  })

  it('a secret changed on the server since the plan is no conflict when the plan does not touch it; the new value goes back as it is', () => {
    const edits = plan(payload(), [{op: 'replace', path: '/branchProtections/0/preventForcedPush', value: true}])
    const rotated = payload()
    rotated.buildSetting.jobSecrets[0].value = 'CANARY-rotated-7f3a'
    const applied = applyPlanned(rotated, edits, editProblem)
    expect('result' in applied && (applied.result as any).buildSetting.jobSecrets[0].value).toBe('CANARY-rotated-7f3a')
  })

  it('set-scheme moves a URL with secret parts to https:// without the plan holding them', () => {
    const edits = plan(payload(), [{op: 'set-scheme', path: '/webHooks/0/postUrl', value: 'https'}])
    expect(JSON.stringify(edits)).not.toContain(secret)
    const applied = applyPlanned(payload(), edits, editProblem)
    expect('result' in applied && (applied.result as any).webHooks[0].postUrl).toBe(`https://ci.internal/hook?token=${secret}`)
  })

  it('a plan file edited to write a secret field is refused before anything is built', () => {
    const edits = plan(payload(), [{op: 'replace', path: '/branchProtections/0/preventForcedPush', value: true}])
    const tampered = [{...edits[0]!, path: '/webHooks/0/secret', value: 'attacker', expect: [{path: '/webHooks/0/secret', value: '<redacted>'}]}] as typeof edits
    expect(applyPlanned(payload(), tampered, editProblem)).toEqual({problem: '/webHooks/0/secret: it holds a secret, which a plan never changes'})
  })

  it('member access never reaches a prototype', () => {
    const document = JSON.parse('{"a": {}}')
    applyEdit(document, {op: 'add', path: '/a/__proto__', value: {polluted: true}})
    expect(({} as any).polluted).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(document.a, '__proto__')).toBe(true)
    expect(() => applyEdit(document, {op: 'replace', path: '/a/constructor', value: 1})).toThrow(PatchError)
  })
})

describe('verification', () => {
  it('names the pointer of every difference, never a value; a new object may come back with the server\'s defaults added', () => {
    const sent = payload()
    const added = branchProtection({branches: 'release'})
    delete (added as any).requireStrictBuilds
    sent.branchProtections.push(added)
    const back = cloneJson(sent)
    back.branchProtections[2].requireStrictBuilds = false
    expect(differences(back, sent, new Set([sent.branchProtections[2]]))).toEqual([])
    expect(differences(back, sent)).toEqual(['/branchProtections/2/requireStrictBuilds'])
    back.branchProtections[1].preventForcedPush = true
    delete back.webHooks[0].secret
    expect(differences(back, sent, new Set([sent.branchProtections[2]]))).toEqual(['/branchProtections/1/preventForcedPush', '/webHooks/0/secret'])
  })

  it('the secrets of a payload, to mask them in a server\'s error text: each value, and the secret parts of URLs', () => {
    const secrets = secretsOf(payload())
    expect(secrets).toContain(secret)
    expect(secrets).toContain(`http://ci.internal/hook?token=${secret}`)
    expect(secrets).not.toContain('on branch "**"')
    // The parts redaction leaves visible are not secrets: a Slack URL's `services` is an ordinary word.
    const slack = secretsOf({webHooks: [{postUrl: 'https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/xoxb1a2b3c4d5e6f'}]})
    expect(slack).toEqual(['https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/xoxb1a2b3c4d5e6f', 'T0A1B2C3D', 'B0E4F5G6H', 'xoxb1a2b3c4d5e6f'])
  })
})

describe('undo records', () => {
  it('restoring edits bring every kind of change back, each expecting what the change left', () => {
    const raw = payload()
    const applied = appliedWithUndo(raw, [
      {op: 'add', path: '/branchProtections/0', value: branchProtection({branches: 'release'})},
      {op: 'replace', path: '/branchProtections/2/preventForcedPush', value: true},
      {op: 'add', path: '/branchProtections/2/newMember', value: 1},
      {op: 'remove', path: '/branchProtections/1'},
      {op: 'set-scheme', path: '/webHooks/0/postUrl', value: 'https'},
    ])
    const {record} = applied
    expect(record.applied.map((a) => [a.op, a.path, a.old !== undefined, a.new])).toEqual([
      ['add', '/branchProtections/0', false, expect.objectContaining({branches: 'release'})],
      ['replace', '/branchProtections/2/preventForcedPush', true, true],
      ['add', '/branchProtections/2/newMember', false, 1],
      ['remove', '/branchProtections/1', true, undefined],
      ['set-scheme', '/webHooks/0/postUrl', true, 'https'],
    ])
    expect(JSON.stringify(record)).not.toContain(secret)
    const restored = applyPlanned(applied.result, record.restore, editProblem)
    expect('result' in restored && restored.result).toEqual(payload())
    // Once the field no longer holds what the change put there, the undo is a conflict.
    const edited = cloneJson(applied.result) as any
    edited.branchProtections[1].preventForcedPush = false
    expect(applyPlanned(edited, record.restore, editProblem)).toHaveProperty('conflict')
    // What each restore expects: the field, the identity of its item and of every item of its list in order; an item it removes, whole; a list it re-inserts into, whole.
    expect(record.restore.map((e) => [e.op, e.path, e.expect.map((x) => x.path)])).toEqual([
      ['set-scheme', '/webHooks/0/postUrl', ['/webHooks/0/postUrl', '/webHooks/0/eventTypes', '/webHooks']],
      ['add', '/branchProtections/1', ['/branchProtections']],
      ['remove', '/branchProtections/2/newMember', ['/branchProtections/2/newMember', '/branchProtections/2/branches', '/branchProtections/2/userMatch', '/branchProtections']],
      ['replace', '/branchProtections/2/preventForcedPush', ['/branchProtections/2/preventForcedPush', '/branchProtections/2/branches', '/branchProtections/2/userMatch', '/branchProtections']],
      ['remove', '/branchProtections/0', ['/branchProtections/0', '/branchProtections']],
    ])
  })

  it('a member of the item edited since by someone else is kept and the field restored; another item at that pointer (its identity changed) is a conflict', () => {
    const raw = payload()
    const applied = appliedWithUndo(raw, [{op: 'replace', path: '/branchProtections/1/preventForcedPush', value: true}])
    const {record} = applied
    const other = cloneJson(applied.result) as any
    other.branchProtections[1].preventDeletion = false
    other.branchProtections[0].preventCreation = false
    const kept = applyPlanned(other, record.restore, editProblem)
    expect('result' in kept && (kept.result as any).branchProtections.map((p: any) => [p.branches, p.preventForcedPush, p.preventDeletion, p.preventCreation])).toEqual([
      ['main', false, true, false],
      ['develop', false, false, true],
    ])
    other.branchProtections[1].branches = 'develop/**'
    expect(applyPlanned(other, record.restore, editProblem)).toMatchObject({conflict: {path: '/branchProtections/1/branches'}})

    // A protection the change added, edited since, is not removed by the undo (all of it would be lost).
    const added = appliedWithUndo(raw, [{op: 'add', path: '/branchProtections/-', value: branchProtection({branches: 'release'})}])
    const addRecord = added.record
    const edited = cloneJson(added.result) as any
    edited.branchProtections[2].preventDeletion = false
    expect(applyPlanned(edited, addRecord.restore, editProblem)).toMatchObject({conflict: {path: '/branchProtections/2'}})
  })

  it('a protection inserted, removed or moved in the list since is a conflict, one with the same patterns and users ahead of it too; a record without the list\'s identities (older) is checked as it was', () => {
    const raw = payload()
    const applied = appliedWithUndo(raw, [{op: 'replace', path: '/branchProtections/1/preventForcedPush', value: true}])
    const {record} = applied
    const identities = [
      {branches: 'main', userMatch: 'anyone'},
      {branches: 'develop', userMatch: 'anyone'},
    ]
    expect(record.restore[0]!.expect.at(-1)).toEqual({path: '/branchProtections', identities})
    const changed = (change: (list: any[]) => void) => {
      const setting = cloneJson(applied.result) as any
      change(setting.branchProtections)
      return applyPlanned(setting, record.restore, editProblem)
    }
    const conflict = {conflict: {path: '/branchProtections', identities}}
    // Someone else's protection for the same branches and users, ahead of the fixed one: the old pointer is now theirs.
    expect(changed((list) => list.splice(1, 0, {...cloneJson(list[1]), reviewRequirement: 'group(leads)'}))).toMatchObject(conflict)
    expect(changed((list) => list.push(branchProtection({branches: 'release'})))).toMatchObject(conflict)
    // The one ahead removed, or the order changed: the field at the old pointer tells first here.
    expect(changed((list) => list.shift())).toMatchObject({conflict: {path: '/branchProtections/1/preventForcedPush'}})
    expect(changed((list) => list.reverse())).toMatchObject({conflict: {path: '/branchProtections/1/preventForcedPush'}})
    // An older record (no identities expectation) restores the field at the old pointer, as it did.
    const older = record.restore.map((edit) => ({...edit, expect: edit.expect.filter((e) => !('identities' in e))}))
    const setting = cloneJson(applied.result) as any
    setting.branchProtections.push(branchProtection({branches: 'release'}))
    const restored = applyPlanned(setting, older, editProblem)
    expect('result' in restored && (restored.result as any).branchProtections[1].preventForcedPush).toBe(false)
  })
})

describe('finding an edited item again by its identity (issue 33)', () => {
  const three = () => {
    const raw = payload()
    raw.branchProtections.push(branchProtection({branches: 'release/**', preventForcedPush: false}))
    return raw
  }
  /** The restores of a change of the last protection's Prevent Forced Push, relocated on `now` (the setting after the change, changed by `change`). */
  function relocated(change: (list: any[]) => void) {
    const {result, record} = appliedWithUndo(three(), [{op: 'replace', path: '/branchProtections/2/preventForcedPush', value: true}])
    const now = cloneJson(result) as any
    change(now.branchProtections)
    return {now, outcome: relocate(redactDeep(now), record.restore[0]!)}
  }

  it('a protection deleted ahead of it: the restore moves to where the protection is now, and holds there', () => {
    const {now, outcome} = relocated((list) => list.splice(0, 1))
    if (!('edit' in outcome)) throw new Error(outcome.lost)
    expect(outcome.edit.path).toBe('/branchProtections/1/preventForcedPush')
    expect(outcome.edit.expect.map((e) => e.path)).toEqual(['/branchProtections/1/preventForcedPush', '/branchProtections/1/branches', '/branchProtections/1/userMatch', '/branchProtections'])
    const reverted = revertWhereHeld(now, [outcome.edit], editProblem)
    expect((reverted.result as any).branchProtections.map((p: any) => [p.branches, p.preventForcedPush])).toEqual([
      ['develop', false],
      ['release/**', false],
    ])
  })

  it('nothing moved: the restore is as it was; a protection deleted behind it changes nothing either', () => {
    expect(relocated(() => {})).toMatchObject({outcome: {edit: {path: '/branchProtections/2/preventForcedPush'}}})
    const {outcome} = relocated((list) => list.push(branchProtection({branches: 'x'})) && list.pop())
    expect(outcome).toMatchObject({edit: {path: '/branchProtections/2/preventForcedPush'}})
  })

  it('gone, ambiguous, or the list added to, moved or renamed in: lost, in our words', () => {
    expect(relocated((list) => list.pop()).outcome).toEqual({lost: 'the item of /branchProtections it edited is no longer there: none has its branches and userMatch'})
    expect(relocated((list) => list.unshift(branchProtection({branches: 'hotfix/*'}))).outcome).toEqual({lost: 'items of /branchProtections were added, moved or given other branches and userMatch'})
    expect(relocated((list) => list.reverse()).outcome).toEqual({lost: 'items of /branchProtections were added, moved or given other branches and userMatch'})
    expect(relocated((list) => (list[2].branches = 'release/*')).outcome).toEqual({lost: 'items of /branchProtections were added, moved or given other branches and userMatch'})
    // A twin right ahead of it, one of the two deleted since: which one is left cannot be told.
    const twin = three()
    twin.branchProtections.splice(2, 0, {...cloneJson(twin.branchProtections[2]), enabled: false})
    const {result, record} = appliedWithUndo(twin, [{op: 'replace', path: '/branchProtections/3/preventForcedPush', value: true}])
    const now = cloneJson(result) as any
    now.branchProtections.splice(2, 1)
    expect(relocate(redactDeep(now), record.restore[0]!)).toEqual({lost: 'more than one item of /branchProtections could be the one it edited, by their branches and userMatch'})
    // A twin further away is told apart by the items between them.
    const apart = three()
    apart.branchProtections.splice(1, 0, {...cloneJson(apart.branchProtections[2]), enabled: false})
    const far = appliedWithUndo(apart, [{op: 'replace', path: '/branchProtections/3/preventForcedPush', value: true}])
    const farNow = cloneJson(far.result) as any
    farNow.branchProtections.splice(1, 1)
    expect(relocate(redactDeep(farNow), far.record.restore[0]!)).toMatchObject({edit: {path: '/branchProtections/2/preventForcedPush'}})
  })

  it('a protection the change added is removed where it is now, whole; a job secret and a web hook are found by name and URL; a notification inside a plugin setting by both', () => {
    const added = appliedWithUndo(payload(), [{op: 'add', path: '/branchProtections/-', value: branchProtection({branches: 'release'})}])
    const now = cloneJson(added.result) as any
    now.branchProtections.splice(0, 1)
    expect(relocate(redactDeep(now), added.record.restore[0]!)).toMatchObject({edit: {op: 'remove', path: '/branchProtections/1'}})

    const raw = payload()
    raw.buildSetting.jobSecrets.unshift({name: 'other', value: secret, authorization: null, archived: false})
    raw.webHooks.unshift({postUrl: 'https://elsewhere.example.com/', eventTypes: ['BUILD'], secret: null, headers: []})
    raw.contributedSettings = [
      {'@type': 'DiscordNotificationSetting', notifications: []},
      {'@type': 'SlackNotificationSetting', notifications: [{webhookUrl: 'http://a.example.com/x'}, {webhookUrl: 'http://b.example.com/y'}]},
    ]
    const changed = appliedWithUndo(raw, [
      {op: 'replace', path: '/buildSetting/jobSecrets/1/authorization', value: 'on branch "main"'},
      {op: 'set-scheme', path: '/webHooks/1/postUrl', value: 'https'},
      {op: 'set-scheme', path: '/contributedSettings/1/notifications/1/webhookUrl', value: 'https'},
    ])
    const later = cloneJson(changed.result) as any
    later.buildSetting.jobSecrets.shift()
    later.webHooks.shift()
    later.contributedSettings.shift()
    later.contributedSettings[0].notifications.shift()
    const paths = changed.record.restore.map((edit) => {
      const outcome = relocate(redactDeep(later), edit)
      return 'edit' in outcome ? outcome.edit.path : outcome.lost
    })
    expect(paths).toEqual(['/contributedSettings/0/notifications/0/webhookUrl', '/webHooks/0/postUrl', '/buildSetting/jobSecrets/0/authorization'])
  })
})
