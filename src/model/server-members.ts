/**
 * Members of the server data that only some server versions send, inside an answer the audit reads
 * anyway (the server-data counterpart of VERSIONED_SETTING_MEMBERS in types.ts). A rule that judges
 * one names it in `meta.requires` as `<endpoint>#<member>` (`/users#/aiSetting`): when some item that
 * should carry it does not, the server is of a version that does not send it, and the rule is not
 * evaluated (src/engine/availability.ts), with a notice (src/engine/coverage.ts).
 */
import {aiUsersWithoutSettings} from './ai-users.js'
import type {AuditModel} from './types.js'

export interface VersionedServerMember {
  /** Which servers send it, for messages. */
  servers: string
  /** What lacks it, in the plural (`AI users`), and the checks left unjudged. */
  items: string
  checks: string
  /** How many items of the answer lack it (0 when the answer was not read). */
  missing: (model: Pick<AuditModel, 'serverData'>) => number
}

export const VERSIONED_SERVER_MEMBERS: Readonly<Record<string, VersionedServerMember>> = {
  // v16.5.6 server-core/src/main/java/io/onedev/server/rest/resource/UserResource.java:118-119 (from v15.1.7).
  '/users#/aiSetting': {servers: 'OneDev 15.1.7 and later', items: 'AI users', checks: 'AI entitlement checks (server/ai-entitled-to-all)', missing: (model) => aiUsersWithoutSettings(model).length},
}
