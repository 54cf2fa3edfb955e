/**
 * Who may use an AI user. An enabled AI user with `entitleToAll` serves everyone: every logged-in
 * user (v16.5.6 server-core/src/main/java/io/onedev/server/model/User.java:1369-1374), every project
 * (server-core/src/main/java/io/onedev/server/model/Project.java:2175-2177), and anonymous visitors in
 * the chat panel (server-core/src/main/java/io/onedev/server/web/component/ai/chat/ChatPanel.java:97-102).
 * What it does on issues and pull requests it is asked to handle runs with its own permissions
 * (server-core/src/main/java/io/onedev/server/notification/IssueNotificationManager.java:602-623), and every
 * request is paid with its model's API key (server-core/src/main/java/io/onedev/server/ai/DefaultChatService.java:181-182).
 */
import type {AiUser} from '../model/ai-users.js'

/** Enabled AI users entitled to everyone. */
export function aiUsersEntitledToAll(users: readonly AiUser[]): AiUser[] {
  return users.filter((user) => !user.disabled && user.entitleToAll === true)
}
