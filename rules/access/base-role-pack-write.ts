/**
 * Base (default) roles that let every logged-in user publish packages of the project.
 */
import {defineRule} from '../../src/engine/rule.js'
import {roleWritesPacks} from '../../src/onedev/access.js'
import {baseRoleFindings, baseRoleSetting, describeBaseRole} from '../support/base-role-findings.js'

export default defineRule({
  meta: {
    id: 'access/base-role-pack-write',
    shortDescription: 'A base role lets every logged-in user publish packages',
    fullDescription:
      'Reports base authorizations (default roles before 11.11) whose role writes packages: Package Privilege WRITE, or Manage Project, which includes it. ' +
      "Every logged-in user then can publish packages (container images, npm, Maven, PyPI, NuGet, ...) in the project's registry and its child projects', " +
      'which its users and builds install as its own. Reported at the project that grants it, once.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'OneDev\'s package registries accept a push or publish from whoever may write packages of the project (v16.5.6 SecurityUtils.canWritePack,',
      'checked by each registry, e.g. ContainerServlet.java:519, NpmPackHandler.java:582), and a role writes packages with *Package Privilege*',
      '`WRITE` or *Manage Project* (Role.java:445–448; packages since 10.0.0, Role.java:53). A base role gives that to every logged-in user,',
      'self-registered and SSO accounts included: they can publish a new version of the project\'s image or library, which deployments and other',
      'projects\' builds then pull as the project\'s own.',
      '',
      '## Fix',
      'In OneDev open *Project Settings → Authorization → Base Authorization* (or *General → Default Roles* before 11.11) and choose a role',
      'whose *Package Privilege* is `READ` or `NONE`; give `WRITE` to the groups and the CI jobs (their job token) that publish.',
      '',
      '## Example',
      '```json',
      '[{"id": 7, "projectId": 42, "roleId": 2}]   // role 2 = Code Writer, "packPrivilege": "WRITE": reported',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege', 'packages'],
    scope: 'project',
    requires: ['/roles', '/projects/{id}/base-authorizations'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    return baseRoleFindings(context, (grant) => {
      const {role} = grant
      if (!roleWritesPacks(role)) return null
      const how = role.packPrivilege === 'WRITE' ? 'Package Privilege WRITE' : 'Manage Project, which includes writing packages'
      return {
        message:
          `${describeBaseRole(context, grant)} lets every logged-in user publish packages of it and its child projects (${how}): ` +
          "anyone with an account can publish an image or library version that others install as the project's own. " +
          `Choose a base role with Package Privilege READ or NONE in ${baseRoleSetting(grant)} and grant WRITE to groups instead.`,
      }
    })
  },
})
