/**
 * OneDev review requirements (`ReviewRequirement.g4`, `ReviewRequirement.java`, onedev-reference.md §3.5).
 *
 * Current form: space-separated `user(<login>)` and `group(<name>)[:N]` (N ≥ 1, default 1).
 * Legacy form (before v11.6.0): the same criteria joined with ` and `, and `group(x):all` (v8.0.4).
 * Both are accepted. null, '' and whitespace mean no reviewers.
 */
import {readParenValue} from './syntax.js'

export class ReviewRequirementSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReviewRequirementSyntaxError'
  }
}

export interface GroupReview {
  name: string
  /** How many members must approve; 'all' (legacy) means every member. */
  count: number | 'all'
}

export interface ReviewRequirement {
  users: string[]
  groups: GroupReview[]
}

const fail = (message: string): never => {
  throw new ReviewRequirementSyntaxError(`malformed review requirement: ${message}`)
}

/**
 * Parses a review requirement. Like the server's non-validating parse, a user or group listed
 * twice counts once (the first mention wins); users compare case-insensitively, groups exactly.
 */
export function parseReviewRequirement(text: string | null | undefined): ReviewRequirement {
  const result: ReviewRequirement = {users: [], groups: []}
  if (text === null || text === undefined || text.trim() === '') return result
  let i = 0
  const skipSpaces = () => {
    const start = i
    while (text[i] === ' ') i++
    return i - start
  }
  skipSpaces()
  let first = true
  while (i < text.length) {
    if (!first) {
      // ' '+ or (legacy) ' '+ 'and' ' '+
      if (skipSpaces() === 0) fail(`expected a space at position ${i + 1}`)
      if (i >= text.length) break
      if (text.startsWith('and ', i)) {
        i += 3
        if (skipSpaces() === 0) fail(`expected a space at position ${i + 1}`)
      }
    }
    first = false
    let kind: 'user' | 'group'
    if (text.startsWith('user(', i)) kind = 'user'
    else if (text.startsWith('group(', i)) kind = 'group'
    else return fail(`expected user(...) or group(...) at position ${i + 1}`)
    const {value, end} = readParenValue(text, i + kind.length, fail)
    i = end
    if (kind === 'user') {
      if (!result.users.some((u) => u.toLowerCase() === value.toLowerCase())) result.users.push(value)
      continue
    }
    let count: number | 'all' = 1
    if (text[i] === ':') {
      i++
      if (text.startsWith('all', i)) {
        count = 'all'
        i += 3
      } else {
        const digits = /^[1-9][0-9]*/.exec(text.slice(i, i + 12))
        if (!digits) return fail(`expected a count of at least 1 or "all" at position ${i + 1}`)
        count = Number(digits[0])
        i += digits[0].length
      }
    }
    if (!result.groups.some((g) => g.name === value)) result.groups.push({name: value, count})
  }
  return result
}

/** Parses, or returns null when the server would have rejected the text. */
export function tryParseReviewRequirement(text: string | null | undefined): ReviewRequirement | null {
  try {
    return parseReviewRequirement(text)
  } catch (error) {
    if (error instanceof ReviewRequirementSyntaxError) return null
    throw error
  }
}

export function hasReviewers(requirement: ReviewRequirement): boolean {
  return requirement.users.length > 0 || requirement.groups.length > 0
}

const countRank = (count: number | 'all') => (count === 'all' ? Number.POSITIVE_INFINITY : count)

/** Union of users; for each group the larger count (`all` is the largest), as the server merges file protections. */
export function mergeReviewRequirements(requirements: ReviewRequirement[]): ReviewRequirement {
  const merged: ReviewRequirement = {users: [], groups: []}
  for (const requirement of requirements) {
    for (const user of requirement.users) {
      if (!merged.users.some((u) => u.toLowerCase() === user.toLowerCase())) merged.users.push(user)
    }
    for (const group of requirement.groups) {
      const existing = merged.groups.find((g) => g.name === group.name)
      if (!existing) merged.groups.push({...group})
      else if (countRank(group.count) > countRank(existing.count)) existing.count = group.count
    }
  }
  return merged
}

/** What `stronger` requires that `weaker` does not, described; empty when `weaker` asks for at least as much. */
export function missingReviews(weaker: ReviewRequirement, stronger: ReviewRequirement): string[] {
  const missing: string[] = []
  for (const user of stronger.users) {
    if (!weaker.users.some((u) => u.toLowerCase() === user.toLowerCase())) missing.push(`a review by user(${user})`)
  }
  for (const group of stronger.groups) {
    const other = weaker.groups.find((g) => g.name === group.name)
    if (!other || countRank(other.count) < countRank(group.count)) {
      missing.push(`${group.count === 'all' ? 'reviews by all members' : group.count === 1 ? '1 review' : `${group.count} reviews`} of group(${group.name})`)
    }
  }
  return missing
}

/** The requirement in the server's current syntax (for messages). */
export function formatReviewRequirement(requirement: ReviewRequirement): string {
  const escape = (name: string) => name.replace(/[\\()]/g, (c) => `\\${c}`)
  return [
    ...requirement.users.map((u) => `user(${escape(u)})`),
    ...requirement.groups.map((g) => `group(${escape(g.name)})${g.count === 1 ? '' : `:${g.count}`}`),
  ].join(' ')
}
