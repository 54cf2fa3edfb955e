/**
 * Base (default) roles that let every logged-in user upload build caches to the project.
 */
import {defineRule} from '../../src/engine/rule.js'
import {roleUploadsCache} from '../../src/onedev/access.js'
import {baseRoleFindings, baseRoleSetting, describeBaseRole} from '../support/base-role-findings.js'

export default defineRule({
  meta: {
    id: 'access/base-role-cache-upload',
    shortDescription: 'A base role lets every logged-in user upload build caches',
    fullDescription:
      'Reports base authorizations (default roles before 11.11) whose role may upload build caches: Upload Cache, or Manage Builds or Manage Project, which ' +
      "include it. Every logged-in user then can put a cache into the project and its child projects that the project's own builds, default branch and " +
      'releases included, restore by its key. Reported at the project that grants it, once.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'A job restores a cache by its key, whoever uploaded it. A job of the default branch uploads its caches by itself; any other upload needs',
      'an access token whose owner may upload caches to that project (v16.5.6 ServerCacheProvisioner.java:87–110, WorkerResource.java:219–226;',
      'since 10.5.0 a job may upload to another project it names). A base role with *Upload Cache* (Role.java:126, since 10.1.0 :70), or with',
      '*Manage Builds* or *Manage Project*, which imply it (ManageBuilds.java:11), gives that to every logged-in user, self-registered and SSO',
      'accounts included: from a job of any project they can run, with their own token, they can replace the cache a release build restores',
      '(`node_modules`, `~/.m2`, a compiler cache) with one that runs their code in that build, with its secrets.',
      '',
      '## Fix',
      'In OneDev open *Project Settings → Authorization → Base Authorization* (or *General → Default Roles* before 11.11) and choose a role',
      'without *Upload Cache*, *Manage Builds* or *Manage Project*; grant cache upload to the groups whose jobs need it.',
      '',
      '## Example',
      '```json',
      '[{"id": 7, "projectId": 42, "roleId": 12}]   // role 12 has "uploadCache": true: reported',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege', 'ci', 'cache'],
    scope: 'project',
    requires: ['/roles', '/projects/{id}/base-authorizations'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    return baseRoleFindings(context, (grant) => {
      const {role} = grant
      if (!roleUploadsCache(role)) return null
      const how = role.uploadCache ? 'Upload Cache' : `${role.manageProject ? 'Manage Project' : 'Manage Builds'}, which includes uploading caches`
      return {
        message:
          `${describeBaseRole(context, grant)} lets every logged-in user upload build caches to it and its child projects (${how}): ` +
          "anyone with an account can plant a cache that the project's builds, default branch and releases included, restore and run. " +
          `Choose a base role without Upload Cache, Manage Builds or Manage Project in ${baseRoleSetting(grant)} and grant cache upload to groups instead.`,
      }
    })
  },
})
