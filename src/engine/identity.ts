/**
 * Identity keys of list items, for findings' `key` (part of the fingerprint). An item is named by
 * what it is, never by where it sits: inserting, removing or reordering other items of its list (or
 * the server returning the list in another order) keeps its findings' fingerprints. Items identical
 * in their identity are told apart by the engine, by their order among themselves.
 *
 * Lists inside an item whose order means nothing (a web hook's events, a transition's states) are
 * sorted. Keys are JSON, so no two different identities read alike; they hold only what the model
 * holds (redacted URLs), never a secret.
 */
import type {IssueTransition} from '../model/issue-setting.js'
import type {ActionAuthorization, ChannelNotification, JobPrivilege, Project, TagProtection, WebHook} from '../model/types.js'
import type {Located} from '../onedev/protection.js'
import {mapped} from '../util/collections.js'

function identity(kind: string, ...parts: Array<string | null | readonly string[]>): string {
  return JSON.stringify([kind, ...parts])
}

const sorted = (names: readonly string[]): string[] => [...names].sort()

/** An item known by its name (an issue board, field, state or board column): `nameKey('board', 'Default')`. */
export function nameKey(kind: string, name: string | null): string {
  return identity(kind, name)
}

/** A web hook: its redacted URL and the events it is sent for. */
export function webHookKey(hook: WebHook): string {
  return identity('web hook', hook.postUrl, sorted(hook.eventTypes))
}

/** A channel notification: its channel and redacted URL (what OneDev itself keys inheritance by). */
export function notificationKey(notification: ChannelNotification): string {
  return identity('notification', notification.channel, notification.webhookUrl)
}

/** A branch or tag protection: its patterns and its user match. */
export function protectionKey(patterns: string | null, userMatch: string): string {
  return identity('protection', patterns, userMatch)
}

/**
 * The tag protections that apply together to a group of tags (one on current servers, several merged
 * on servers up to 8.1): each by its patterns and user match, and its project when inherited.
 */
export function tagProtectionsKey(sources: ReadonlyArray<Located<Pick<TagProtection, 'tags' | 'userMatch'>>>, project: Pick<Project, 'id'>): string {
  return mapped(sources, (source) => ownedKey(protectionKey(source.item.tags, source.item.userMatch), {id: source.projectId, path: source.projectPath}, project)).join(' + ')
}

/** A legacy build action authorization: its type and its patterns. */
export function actionAuthorizationKey(authorization: ActionAuthorization): string {
  return identity(authorization.type, authorization.authorizedBranches, authorization.names)
}

/** A role's job privilege: its job names. */
export function jobPrivilegeKey(privilege: JobPrivilege): string {
  return identity('job privilege', privilege.jobNames)
}

/** An issue transition: its kind (the spec's or trigger's type), where it starts and where it leads. */
export function transitionKey(transition: IssueTransition): string {
  const names = (refs: ReadonlyArray<{name: string}>) => sorted(refs.map((ref) => ref.name))
  return identity('transition', transition.type, names(transition.fromStates), transition.toStates && names(transition.toStates), transition.toState?.name ?? null)
}

/**
 * The transition with its states in name order, for a subject that does not change when the file
 * lists them in another order (`transitionLabel(withSortedStates(t))`).
 */
export function withSortedStates(transition: IssueTransition): IssueTransition {
  const byName = <T extends {name: string}>(refs: readonly T[]): T[] => [...refs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return {...transition, fromStates: byName(transition.fromStates), toStates: transition.toStates && byName(transition.toStates)}
}

/**
 * The key of an item of `owner`'s setting reported while auditing `project`: the item's own key, or,
 * for an item an ancestor holds, that key prefixed with the ancestor's path (`from:acme ...`).
 */
export function ownedKey(key: string, owner: Pick<Project, 'id' | 'path'>, project: Pick<Project, 'id'>): string {
  return owner.id === project.id ? key : `from:${owner.path} ${key}`
}
