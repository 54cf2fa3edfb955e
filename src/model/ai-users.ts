/**
 * A typed view of the AI users in the users listing (`GET /users`, already read for the access model;
 * redacted at ingest: `aiSetting.modelSetting.apiKey` never reaches the document).
 *
 * AI users exist from v13.1.3 (`User.Type` ORDINARY, SERVICE, AI: v13.1.3
 * server-core/src/main/java/io/onedev/server/model/User.java:71; v16.5.6 the same file :79). The
 * listing carries an AI user's `aiSetting` only from v15.1.7 (v16.5.6
 * server-core/src/main/java/io/onedev/server/rest/resource/UserResource.java:118-119, `UserData.aiSetting` :663);
 * from v13.1.3 to v15.1.6 it lists AI users without it, and no endpoint answers it. `aiSetting` is
 * {modelSetting {baseUrl, apiKey, name, timeoutSeconds}, entitleToAll, systemPrompt, …} (v16.5.6
 * server-core/src/main/java/io/onedev/server/model/support/AiSetting.java:22-34, AiModelSetting.java:45-54).
 */
import type {z} from 'zod'

import {USERS_KEY} from './access-data.js'
import * as checks from './payload-checks.js'
import {parser, storedItems} from './parser.js'
import {joinPointer} from './pointer.js'
import type * as S from './server-schemas.js'
import type {AuditModel} from './types.js'

type Model = Pick<AuditModel, 'serverData'>

/** `User.Type.AI`. */
export const AI_USER_TYPE = 'AI'

export interface AiUser {
  /** `/users/<index>`. */
  pointer: string
  id: number | null
  name: string
  disabled: boolean
  /** null: the listing does not carry the user's AI settings (servers from 13.1.3 to 15.1.6). */
  entitleToAll: boolean | null
  /** Where `entitleToAll` sits (the user itself when the listing does not carry it). */
  entitlePointer: string
}

const UserSchema = parser<z.infer<typeof S.UserSchema>>(checks.isUser)
const AiSettingSchema = parser<z.infer<typeof S.AiSettingSchema>>(checks.isAiSetting)

/** The AI users of the users listing, in its order; undefined when the listing was not read. */
export function aiUsersOf(model: Model): AiUser[] | undefined {
  return storedItems(model.serverData, USERS_KEY, UserSchema)
    ?.filter(({item}) => item.type === AI_USER_TYPE)
    .map(({item, pointer}) => {
      const setting = AiSettingSchema.safeParse((item as Record<string, unknown>).aiSetting)
      const entitleToAll = setting.success ? (setting.data.entitleToAll ?? false) : null
      return {
        pointer,
        id: item.id ?? null,
        name: item.name,
        disabled: item.disabled ?? false,
        entitleToAll,
        entitlePointer: entitleToAll === null ? pointer : joinPointer(pointer, 'aiSetting', 'entitleToAll'),
      }
    })
}

/** AI users whose settings the listing does not carry (servers from 13.1.3 to 15.1.6): what cannot be judged. */
export function aiUsersWithoutSettings(model: Model): AiUser[] {
  return (aiUsersOf(model) ?? []).filter((user) => user.entitleToAll === null)
}
