/**
 * Outbound endpoints of a project (channel notifications and web hooks) as OneDev applies them over
 * the project hierarchy (onedev-reference.md §3.6), and how to name them without leaking anything.
 *
 * - Web hooks are concatenated: the project's own, then each ancestor's (`getHierarchyWebHooks`).
 * - Channel notifications are inherited per channel; a nearer entry with the same `webhookUrl`
 *   overrides a farther one (`ChannelNotificationManager#getNotifications`, `putIfAbsent`). The model
 *   only holds redacted URLs, so two different URLs that redact alike count as one here.
 *
 * Findings name an endpoint by its host only: never the path, query or user info of its URL.
 */
import type {ChannelNotification, Project, UrlFacts, WebHook} from '../model/types.js'

/** An inherited item together with the project whose setting holds it. */
export interface Owned<T> {
  item: T
  owner: Project
}

/** Notifications that take effect for the first project of `chain` (the project, then its ancestors nearest first). */
export function effectiveNotifications(chain: Project[]): Array<Owned<ChannelNotification>> {
  const seen = new Set<string>()
  const out: Array<Owned<ChannelNotification>> = []
  for (const owner of chain) {
    for (const item of owner.setting?.notifications ?? []) {
      const key = `${item.channel}\n${item.webhookUrl ?? ''}`
      if (item.webhookUrl !== null && seen.has(key)) continue
      seen.add(key)
      out.push({item, owner})
    }
  }
  return out
}

/** Web hooks that fire for the first project of `chain`: all of them, own first. */
export function hierarchyWebHooks(chain: Project[]): Array<Owned<WebHook>> {
  const out: Array<Owned<WebHook>> = []
  for (const owner of chain) for (const item of owner.setting?.webHooks ?? []) out.push({item, owner})
  return out
}

/**
 * The projects whose items a rule reports while auditing `project`: the project itself, plus each
 * ancestor that is not audited on its own (its items would otherwise never surface).
 */
export function reportedOwners(project: Project, ancestors: Project[], audited: ReadonlySet<number>): Set<number> {
  const owners = new Set([project.id])
  for (const ancestor of ancestors) if (!audited.has(ancestor.id)) owners.add(ancestor.id)
  return owners
}

/** The host to name an endpoint by; never any other part of the URL. */
export function hostOf(url: UrlFacts | null): string {
  return url?.host ? url.host : '(unparsable URL)'
}

/** Re-exported for the rules that locate members of web hooks, notifications and roles. */
export {memberPointer} from '../model/pointer.js'
