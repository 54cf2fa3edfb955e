/** Building one Change: the shape every comparison returns (schemas/diff.schema.json). */
import {hash} from 'node:crypto'

import type {Change, ProjectRef, RoleRef} from './diff-types.js'

export type {Change}
export type Classification = Change['classification']

export interface ChangeInput {
  kind: Change['kind']
  change: Change['change']
  classification: Classification
  /** The rule whose subject the change touches (its severity is the weakening's, unless a new finding says more). */
  ruleId?: string
  project?: ProjectRef | null
  role?: RoleRef | null
  subject: string
  aspect: string
  principals?: string[]
  before: string | null
  after: string | null
  message: string
}

/** A Change with its stable id (kind, owner id, subject, aspect, principals): the same change in another run gets the same id. */
export function change(input: ChangeInput): Change {
  const owner = input.project ? `project:${input.project.id}` : input.role ? `role:${input.role.id}` : ''
  const id = hash('sha256', [input.kind, owner, input.subject, input.aspect, (input.principals ?? []).join(','), input.change].join('\n'), 'hex').slice(0, 32)
  return {
    kind: input.kind,
    change: input.change,
    classification: input.classification,
    ...(input.ruleId === undefined ? {} : {ruleId: input.ruleId}),
    project: input.project ?? null,
    role: input.role ?? null,
    subject: input.subject,
    aspect: input.aspect,
    ...(input.principals === undefined ? {} : {principals: input.principals}),
    before: input.before,
    after: input.after,
    message: input.message,
    id,
  }
}

/** weakened when anything got weaker, else strengthened when anything got stronger, else neutral. */
export function classify(weaker: boolean, stronger: boolean): Classification {
  return weaker ? 'weakened' : stronger ? 'strengthened' : 'neutral'
}

export const projectRef = (project: {id: number; path: string}): ProjectRef => ({id: project.id, path: project.path})
