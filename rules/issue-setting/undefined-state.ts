import {nameKey, transitionKey} from '../../src/engine/identity.js'
import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import type {NameRef} from '../../src/model/issue-setting.js'
import {defines, quoted, stateNames, transitionLabel} from '../../src/issue-setting/workflow.js'

export default defineRule({
  meta: {
    id: 'issue-setting/undefined-state',
    shortDescription: 'A transition or a board column names a state that does not exist.',
    fullDescription:
      'Transitions (fromStates, toStates, toState) and the columns of boards identified by State name states. OneDev does not check these names when the setting is posted; a misspelt state silently disables the transition or leaves an empty column.',
    defaultSeverity: 'high',
    help: [
      'OneDev validates almost none of the issue setting\'s cross-references on `POST /settings/issue`. A transition whose `fromStates`, `toStates` or `toState` names a state that is not in `stateSpecs` never fires (or moves issues into a state the workflow does not know), and a board column (on a board whose `identifyField` is `State`) naming an unknown state stays empty.',
      '',
      '**Fix:** correct the name to one defined in `stateSpecs`, or add the state.',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const setting = context.issueSetting
    if (!defines(setting, 'stateSpecs')) return []
    const states = stateNames(setting)
    const findings: FindingDraft[] = []
    // `list` names the list the reference is in by what holds it (a transition, a board), not by position.
    const report = (ref: NameRef, where: string, list: string) => {
      if (states.has(ref.name)) return
      findings.push({
        subject: ref.name,
        key: list,
        pointer: ref.pointer,
        message: `${where} names the state ${quoted(ref.name)}, which stateSpecs does not define. Correct the name or add the state.`,
      })
    }
    for (const transition of setting.transitions) {
      const where = `The transition ${transition.pointer} (${transitionLabel(transition)})`
      const key = transitionKey(transition)
      for (const ref of transition.fromStates) report(ref, where, `${key} fromStates`)
      for (const ref of transition.toStates ?? []) report(ref, where, `${key} toStates`)
      if (transition.toState) report(transition.toState, where, `${key} toState`)
    }
    for (const board of setting.boards) {
      if (board.identifyField?.name !== 'State') continue
      for (const column of board.columns) {
        if (column.name !== null) report({name: column.name, pointer: column.pointer}, `A column of the board ${quoted(board.name)}`, `${nameKey('board', board.name)} columns`)
      }
    }
    return findings
  },
})
