/**
 * Plan and undo files: written atomically (mode 0600: they describe a server's protections), read
 * with their published schemas. A file of an unknown version, or edited into something its schema
 * refuses, is a one-line error naming the file and where, and nothing is sent.
 */

import type {AuditError} from '../model/types.js'
import {describeIssues, schemaIssues} from '../model/normalize.js'
import {oneLine} from '../util/escape.js'
import {jsonDocument, LazyArray, LazyObject, prettyJson} from '../report/json-stream.js'
import {readTextFile, writeChunksAtomic} from '../util/fs.js'
import {isObject, parseJson} from '../util/json.js'
import type {FixSelection, ProposedPlan} from './plan.js'
import type {FixPlan} from './plan-types.js'
import type {AppliedProject} from './undo.js'
import type {FixUndo} from './undo-types.js'

export const PLAN_VERSION = 1
/** 2: sealed records (src/fix/seal.ts). Versions that read only 1 refuse a 2 with one line ("newer than this onedev-audit reads: upgrade"). */
export const UNDO_VERSION = 2
export const PLAN_SCHEMA_URL = 'https://onedev-audit.dev/schemas/fix-plan.schema.json'
export const UNDO_SCHEMA_URL = 'https://onedev-audit.dev/schemas/fix-undo.schema.json'

/** A plan or undo file that cannot be read or used; `error` is safe to print. */
export class FixFileError extends Error {
  readonly error: AuditError
  constructor(message: string) {
    super(message)
    this.name = 'FixFileError'
    this.error = {kind: 'config', message}
  }
}

type Kind = 'plan' | 'undo'

const VERSION_KEY = {plan: 'planVersion', undo: 'undoVersion'} as const
const VERSION = {plan: PLAN_VERSION, undo: UNDO_VERSION} as const
/** Older formats still read: an undo record of version 1 (never sealed) is judged as an unsealed one. */
const OLDER: Record<Kind, readonly number[]> = {plan: [], undo: [1]}
const WRITER = {plan: 'onedev-audit fix --output', undo: 'onedev-audit fix --apply'} as const

/**
 * Written as it is serialized (a plan of a large server is tens of MB): the long lists item by item.
 * `createOnly`: fails with EEXIST rather than replace a file that is there (an undo record is never overwritten).
 */
export async function writeFixFile(path: string, document: FixPlan | FixUndo, createOnly = false, known?: WeakMap<object, string>): Promise<void> {
  const text = known ? (item: unknown, depth: number) => knownText(item, depth, known) : undefined
  const lists = Object.fromEntries(Object.entries(document).map(([key, value]) => [key, Array.isArray(value) ? new LazyArray(value, undefined, text) : value]))
  await writeChunksAtomic(path, jsonDocument(new LazyObject(lists)), 0o600, createOnly)
}

/**
 * The pretty text of a list item, made once: an undo record is rewritten as it grows (before each
 * POST and as each project is settled), and a project's record never changes once made, so each
 * write costs the new projects' serialization, not all of them again (1,000 changed projects: 3.6 s
 * of CPU before). The items of a document's top-level lists are always at the same depth.
 */
function knownText(item: unknown, depth: number, known: WeakMap<object, string>): string | undefined {
  if (!isObject(item)) return undefined
  let text = known.get(item)
  if (text === undefined) {
    text = [...prettyJson(item, depth)].join('')
    known.set(item, text)
  }
  return text
}

/** Reads and validates a plan (or undo) file; throws FixFileError saying what is wrong and where. */
export async function readFixFile(path: string, kind: 'plan'): Promise<FixPlan>
export async function readFixFile(path: string, kind: 'undo'): Promise<FixUndo>
export async function readFixFile(path: string, kind: Kind): Promise<FixPlan | FixUndo> {
  let text: string
  try {
    text = await readTextFile(path)
  } catch (error) {
    throw new FixFileError(`${path}: cannot read the ${kind} file (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  let document: unknown
  try {
    document = parseJson(text, path)
  } catch (error) {
    throw new FixFileError(error instanceof Error ? error.message : String(error))
  }
  const version = isObject(document) ? document[VERSION_KEY[kind]] : undefined
  if (version !== VERSION[kind] && !(typeof version === 'number' && OLDER[kind].includes(version))) {
    if (typeof version === 'number' && version > VERSION[kind]) throw new FixFileError(`${path}: ${kind} format ${version} is newer than this onedev-audit reads (${VERSION[kind]}): upgrade onedev-audit`)
    if (typeof version === 'number') throw new FixFileError(`${path}: ${kind} format ${version} is not one this onedev-audit reads (${VERSION[kind]})`)
    throw new FixFileError(`${path}: not a ${kind} file written by ${WRITER[kind]} (no ${VERSION_KEY[kind]})`)
  }
  const {fileSchema} = await import('./file-schemas.js')
  const schema = fileSchema(kind)
  const issues = await schemaIssues(() => false, async () => schema, document, document)
  if (issues.length > 0) throw new FixFileError(describeIssues(`${path}: not a valid ${kind} file`, issues))
  const unchecked = uncheckedEdit(document as FixPlan | FixUndo, kind)
  if (unchecked) throw new FixFileError(`${path}: not a valid ${kind} file: ${unchecked}`)
  return document as FixPlan | FixUndo
}

/**
 * The first edit whose expectations check nothing it changes: none names its path, or a member or
 * list it lies in (a file edited by hand could otherwise overwrite a field without looking at it).
 */
function uncheckedEdit(document: FixPlan | FixUndo, kind: Kind): string | null {
  const lists =
    kind === 'plan'
      ? (document as FixPlan).projects.flatMap((project, i) => project.changes.map((change, j) => [`/projects/${i}/changes/${j}/edits`, change.edits] as const))
      : (document as FixUndo).projects.map((project, i) => [`/projects/${i}/restore`, project.restore] as const)
  for (const [at, edits] of lists) {
    for (const [k, edit] of edits.entries()) {
      const covers = edit.expect.some((expectation) => expectation.path === edit.path || edit.path.startsWith(`${expectation.path}/`))
      if (!covers) return `${at}/${k}: no expectation names its path ${oneLine(edit.path, 200)} or what holds it`
    }
  }
  return null
}

/** The server a plan or undo record is for, compared with the one of this run: the same base URL and API prefix. */
export function serverMismatch(file: string, recorded: {url: string; apiPrefix: string} | null, url: string, apiPrefix: string): string | null {
  if (recorded === null) return `${file} names no server (its snapshot had none): make the plan from the server, or from a snapshot collected from it`
  const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
  if (!same(recorded.url, url)) return `${file} is for ${oneLine(recorded.url, 200)}, not ${oneLine(url, 200)}: nothing was sent`
  if (!same(recorded.apiPrefix, apiPrefix)) return `${file} is for the API prefix ${oneLine(recorded.apiPrefix, 40)} of that server, not ${oneLine(apiPrefix, 40)}: nothing was sent`
  return null
}

/** The plan as its file holds it. */
export function planDocument(
  plan: Pick<ProposedPlan, 'projects' | 'manual' | 'context'>,
  meta: {tool: FixPlan['tool']; server: FixPlan['server']; createdAt: string; source: FixPlan['source']; selection: FixSelection},
): FixPlan {
  return {
    $schema: PLAN_SCHEMA_URL,
    planVersion: PLAN_VERSION,
    tool: meta.tool,
    server: meta.server,
    createdAt: meta.createdAt,
    source: meta.source,
    selection: {suggestions: meta.selection.suggestions, rules: [...meta.selection.rules]},
    projects: plan.projects,
    manual: plan.manual,
    context: plan.context,
  }
}

/** The undo record of a run so far, not sealed yet (src/fix/seal.ts seals it). */
export function undoDocument(meta: {tool: FixUndo['tool']; server: FixUndo['server']; appliedAt: string; plan: string | null}, projects: readonly AppliedProject[], complete: boolean): FixUndo {
  return {
    $schema: UNDO_SCHEMA_URL,
    undoVersion: UNDO_VERSION,
    tool: meta.tool,
    server: meta.server,
    appliedAt: meta.appliedAt,
    plan: meta.plan,
    complete,
    projects: projects as FixUndo['projects'],
  }
}
