/** Where a person changes what a finding is about, in OneDev's web UI: for manual steps. */
import type {Finding} from '../engine/rule.js'

const PROJECT_PAGES: Record<string, string> = {
  'branch-protection': 'Project Settings > Branch Protection',
  'file-protection': 'Project Settings > Branch Protection (file protections of the protection that applies)',
  'tag-protection': 'Project Settings > Tag Protection',
  'job-secret': 'Project Settings > Build > Job Secrets',
  build: 'Project Settings > Build',
  webhook: 'Project Settings > Web Hooks',
  notification: 'Project Settings > Web Hooks, or Notification (Slack, Discord, Ntfy)',
  access: 'Project Settings > Authorization (and Administration > Groups, Users)',
}

const SERVER_PAGES: Record<string, string> = {
  role: 'Administration > Roles',
  server: 'Administration',
  'issue-setting': 'Administration > Issue Settings (or `onedev-audit issue-setting apply`)',
}

/** The settings page a rule's findings are changed on, for a project (`Project Settings > Branch Protection`). */
export function projectPage(ruleId: string): string {
  return PROJECT_PAGES[ruleId.slice(0, ruleId.indexOf('/'))] ?? 'Project Settings (see the finding)'
}

/** `acme/app: Project Settings > Branch Protection`, of the project that holds the setting (the finding's source, else its project). */
export function whereToChange(finding: Finding): string {
  const area = finding.ruleId.slice(0, finding.ruleId.indexOf('/'))
  const server = SERVER_PAGES[area]
  if (server) return server
  const holder = finding.source ?? finding.project
  const page = projectPage(finding.ruleId)
  return holder ? `${holder.path}: ${page}` : page
}
