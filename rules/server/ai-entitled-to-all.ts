/**
 * An enabled AI user entitled to all users and projects: everyone, anonymous visitors in the chat
 * panel too, uses it, its permissions and its model's API key (src/onedev/ai-users.ts).
 */
import {defineRule} from '../../src/engine/rule.js'
import {aiUsersOf} from '../../src/model/ai-users.js'
import {aiUsersEntitledToAll} from '../../src/onedev/ai-users.js'

export default defineRule({
  meta: {
    id: 'server/ai-entitled-to-all',
    shortDescription: 'An AI user serves every user and project, anonymous visitors included',
    fullDescription:
      'Reports enabled AI users (OneDev 13.1.3 and later) with *Entitle to All Users and Projects* (`aiSetting.entitleToAll`). Every logged-in user ' +
      'and every project may use such an AI user, and anonymous visitors see it in the chat panel: it works on the issues and pull requests it is ' +
      'asked to with its own permissions, and every request is paid with its model\'s API key. The users listing carries the AI settings from ' +
      'OneDev 15.1.7; on earlier servers with AI users the check is not evaluated.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'An AI user acts as a user of its own: what it is asked to do on an issue or a pull request (comment, open a workspace) runs with',
      'its permissions, not the asker\'s, and whatever anyone types in the chat panel spends its API key at the model provider. Entitled to all,',
      'it serves every account, including self-registered ones, and anonymous visitors of a server with anonymous access.',
      '',
      '## Fix',
      'In OneDev open *Administration → User Management → Users*, the AI user, *AI Settings → Entitlement*: clear *Entitle to All Users and',
      'Projects* and entitle the groups, users or projects that need it; give the AI user only the roles its work needs.',
      '',
      '## In OneDev\'s source',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/model/support/AiSetting.java:24` (`entitleToAll`, from v13.1.3); the users listing carries `aiSetting`',
      '  from v15.1.7: `server-core/src/main/java/io/onedev/server/rest/resource/UserResource.java:118-119`.',
      '- Who is entitled: `server-core/src/main/java/io/onedev/server/model/User.java:1369-1374`, `Project.java:2175-2177`; anonymous visitors:',
      '  `server-core/src/main/java/io/onedev/server/web/component/ai/chat/ChatPanel.java:97-102`; its work on issues:',
      '  `server-core/src/main/java/io/onedev/server/notification/IssueNotificationManager.java:602-623`.',
      '',
      '## Example',
      '```json',
      '{"id": 7, "type": "AI", "name": "assistant", "disabled": false, "aiSetting": {"entitleToAll": true, "modelSetting": {"apiKey": "…"}}}   // reported',
      '{"id": 7, "type": "AI", "name": "assistant", "disabled": false, "aiSetting": {"entitleToAll": false, …}}                             // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ai', 'access-control'],
    scope: 'server',
    requires: ['/users', '/users#/aiSetting'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const users = aiUsersOf(context.model)
    if (!users) return []
    return aiUsersEntitledToAll(users).map((user) => ({
      subject: `AI user ${user.name}`,
      message:
        `AI user ${user.name} is entitled to all users and projects: everyone, anonymous visitors in the chat panel too, can put it to work with its permissions and its model's API key. ` +
        `In Administration > User Management > ${user.name} > AI Settings > Entitlement, clear Entitle to All Users and Projects and entitle only the groups, users or projects that need it.`,
      pointer: user.entitlePointer,
    }))
  },
})
