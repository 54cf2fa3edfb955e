/**
 * Every command, by id: oclif's explicit command strategy (package.json `oclif.commands`) reads this
 * map from the bundled build (dist/cli/commands.js, scripts/bundle.mjs) instead of searching a
 * directory. A command added under src/commands must be added here too (test/commands-map.test.ts).
 */
import Access from '../commands/access.js'
import Collect from '../commands/collect.js'
import Diff from '../commands/diff.js'
import Fix from '../commands/fix.js'
import IssueSettingApply from '../commands/issue-setting/apply.js'
import IssueSettingLint from '../commands/issue-setting/lint.js'
import IssueSettingPull from '../commands/issue-setting/pull.js'
import Notify from '../commands/notify.js'
import Rules from '../commands/rules/index.js'
import RulesShow from '../commands/rules/show.js'
import Scan from '../commands/scan.js'
import Verify from '../commands/verify.js'

export const commands = {
  access: Access,
  collect: Collect,
  diff: Diff,
  fix: Fix,
  'issue-setting:apply': IssueSettingApply,
  'issue-setting:lint': IssueSettingLint,
  'issue-setting:pull': IssueSettingPull,
  notify: Notify,
  rules: Rules,
  'rules:show': RulesShow,
  scan: Scan,
  verify: Verify,
}
