/**
 * access/base-role-cache-upload and access/base-role-pack-write. Roles as OneDev writes them: every
 * field of Role.java, so `uploadCache` (v10.1.0 Role.java:70; v16.5.6 :126) and `packPrivilege`
 * (`NONE`/`READ`/`WRITE`, v10.0.0 Role.java:53, PackPrivilege.java; v16.5.6 Role.java:104) are present
 * on servers that have them and absent before.
 */
import baseRoleCacheUpload from '../../../rules/access/base-role-cache-upload.js'
import basePackWrite from '../../../rules/access/base-role-pack-write.js'
import {accessModel} from '../../helpers/access-builders.js'
import {project, role} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const ROLES = [
  role({id: 1, name: 'Project Owner', manageProject: true, codePrivilege: 'WRITE', packPrivilege: 'NONE'}),
  role({id: 2, name: 'Code Writer', codePrivilege: 'WRITE', packPrivilege: 'WRITE'}, 1),
  role({id: 3, name: 'Code Reader', codePrivilege: 'READ', packPrivilege: 'READ'}, 2),
  role({id: 6, name: 'Builder', codePrivilege: 'READ', manageBuilds: true}, 3),
  role({id: 7, name: 'Cache Uploader', codePrivilege: 'READ', uploadCache: true}, 4),
  role({id: 8, name: 'Packager', codePrivilege: 'NONE', packPrivilege: 'WRITE'}, 5),
  // A 9.x server: neither member (no packages before 10.0.0, no cache upload before 10.1.0).
  {...role({id: 9, name: 'Old Owner', manageProject: true, manageBuilds: true, codePrivilege: 'WRITE'}, 6), packPrivilege: null, uploadCache: null},
]

const on = (roleIds: number[], extra: Partial<Parameters<typeof accessModel>[0]> = {}) => accessModel({projects: [project({id: 1, path: 'app'})], roles: ROLES, base: {1: roleIds}, ...extra})

ruleTester(baseRoleCacheUpload, {
  valid: [
    {name: 'reading base roles', model: on([3, 8])},
    {name: 'base authorizations not read', model: accessModel({projects: [project({id: 1, path: 'app'})], roles: ROLES})},
    {name: 'a server before 10.1.0 uploads no build cache, whatever the role manages', model: on([9])},
    {name: 'granted to a group, not to everyone', model: accessModel({projects: [project({id: 1, path: 'app'})], roles: ROLES, base: {1: [3]}, groupGrants: {1: [[5, 7]]}, groups: [{id: 5, name: 'ci'}]})},
  ],
  invalid: [
    {
      name: 'Upload Cache',
      model: on([3, 7]),
      findings: [{subject: 'Cache Uploader', severity: 'high', pointer: '/projects~11~1base-authorizations/1/roleId', messageIncludes: ['Base role "Cache Uploader" of app', 'upload build caches', '(Upload Cache)', 'Settings > Authorization > Base Authorization of app']}],
    },
    {name: 'Manage Builds includes it (ManageBuilds.java:11)', model: on([6]), findings: [{subject: 'Builder', messageIncludes: 'Manage Builds, which includes uploading caches'}]},
    {name: 'Manage Project includes it', model: on([1]), findings: [{subject: 'Project Owner', messageIncludes: 'Manage Project, which includes uploading caches'}]},
    {
      name: 'inherited from an ancestor that is not audited',
      model: accessModel({projects: [project({id: 2, path: 'org/app', parentId: 1})], ancestors: [project({id: 1, path: 'org'})], roles: ROLES, base: {1: [7]}}),
      findings: [{subject: 'Cache Uploader', sourceId: 1, messageIncludes: 'inherited from org'}],
    },
    {
      name: 'a default role of a server before 11.11 (10.1 – 11.10)',
      model: (() => {
        const p = project({id: 1, path: 'app'})
        p.defaultRoleId = 7
        return accessModel({projects: [p], roles: ROLES})
      })(),
      findings: [{subject: 'Cache Uploader', pointer: '', messageIncludes: ['Default role', 'Settings > General > Default Roles of app']}],
    },
  ],
})

ruleTester(basePackWrite, {
  valid: [
    {name: 'reading base roles', model: on([3, 7, 6])},
    {name: 'a server before 10.0.0 has no packages', model: on([9])},
  ],
  invalid: [
    {
      name: 'Package Privilege WRITE',
      model: on([8]),
      findings: [{subject: 'Packager', severity: 'high', pointer: '/projects~11~1base-authorizations/0/roleId', messageIncludes: ['publish packages', '(Package Privilege WRITE)', 'Package Privilege READ or NONE in Settings > Authorization > Base Authorization of app']}],
    },
    {name: 'Code Writer writes packages too', model: on([2]), findings: [{subject: 'Code Writer'}]},
    {name: 'Manage Project includes it (ManageProject.java:10)', model: on([1]), findings: [{subject: 'Project Owner', messageIncludes: 'Manage Project, which includes writing packages'}]},
    {
      name: 'an audited parent reports its own, once',
      model: accessModel({projects: [project({id: 1, path: 'org'}), project({id: 2, path: 'org/app', parentId: 1})], roles: ROLES, base: {1: [8]}}),
      findings: [{subject: 'Packager', projectId: 1, sourceId: null}],
    },
  ],
})
