import {defineRule} from '../../src/engine/rule.js'

export default defineRule({
  meta: {
    id: 'issue-setting/no-states',
    shortDescription: 'The issue workflow defines no state.',
    fullDescription:
      'An issue setting whose stateSpecs list is empty leaves issues without an initial state (OneDev takes the first state as the initial one). The server does not check this when the setting is posted.',
    defaultSeverity: 'high',
    help: [
      'OneDev opens every new issue in the **first** entry of `stateSpecs`. With no state at all, issues cannot be created or moved, and the server accepts such a setting without complaint.',
      '',
      '**Fix:** define at least one state, the initial one first:',
      '',
      '```json',
      '"stateSpecs": [{"name": "Open", "color": "#f0ad4e"}, {"name": "Closed", "color": "#5cb85c"}]',
      '```',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const setting = context.issueSetting
    if (setting.omittedKeys.includes('stateSpecs') || setting.states.length > 0) return []
    return [
      {
        subject: 'stateSpecs',
        pointer: '/stateSpecs',
        message: 'The workflow defines no state: add at least one entry to stateSpecs (the first one is the initial state of new issues).',
      },
    ]
  },
})
