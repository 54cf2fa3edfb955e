import {defineRule} from '../../src/engine/rule.js'

export default defineRule({
  meta: {
    id: 'issue-setting/omitted-key',
    shortDescription: 'The file leaves out a part of the setting, which the server then resets to its stock default.',
    fullDescription:
      'POST /settings/issue replaces the whole setting, and a key missing from the body is not kept: the server fills it with its stock default (states Open, In Progress, In Review, Closed; fields Type, Priority, Assignees, Build; ...). A file meant to be applied should state every part.',
    defaultSeverity: 'medium',
    help: [
      'OneDev builds the posted setting from its default constructor, so any of `stateSpecs`, `transitionSpecs`, `fieldSpecs`, `boardSpecs`, `listFields`, `listLinks`, `namedQueries` and `issueTemplates` left out of the file is **replaced by the stock default**, not kept from the server.',
      '',
      '**Fix:** start from `onedev-audit issue-setting pull --output FILE` and keep every key in the file (an empty list is fine).',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    return context.issueSetting.omittedKeys.map((key) => ({
      subject: key,
      pointer: '',
      message: `The file has no ${key}: applying it resets ${key} to OneDev's stock default. Add the key (an empty list if you want none).`,
    }))
  },
})
