/**
 * Where a finding lives, as a file path and line: computed once here for every format.
 *
 * Findings point into the redacted raw payloads with JSON pointers. The files are the ones
 * `collect --output-dir` writes (`onedev/projects/<path>.json`, `onedev/roles.json`), pretty-printed
 * with JSON.stringify(raw, null, 2), so a line computed here matches a committed snapshot. Findings
 * of issue-setting lint point into the linted file's own text.
 */
import {isAbsolute, relative, sep} from 'node:path'

import type {AuditModel} from '../model/types.js'
import {projectFilePath, ROLES_FILE as SNAPSHOT_ROLES_FILE, SERVER_DATA_FILE as SNAPSHOT_SERVER_FILE} from '../snapshot/layout.js'
import {JsonLines} from './pointer-line.js'
import {PrettyJsonLines} from './pretty-lines.js'
import type {Finding} from '../types/report-types.js'

export {lineOfPointer, pointerTokens} from './pointer-line.js'

/** The raw payloads findings point into. */
export interface LocationSource {
  projectRaw(projectId: number): unknown | undefined
  projectPath(projectId: number): string | undefined
  /** The project's file in the snapshot folder when it is known (a loaded snapshot's index); else `projectFilePath(path)`. */
  projectFile?(projectId: number): string | undefined
  /** The redacted raw roles listing (roles.json). */
  rolesRaw: unknown[] | undefined
  /** Position of a role in the roles listing; when absent, the listing is searched for the role's id. */
  roleIndex?(roleId: number): number | undefined
  /** The server data document (model.serverData), written as server.json by `collect --output-dir`. */
  serverData?: unknown
  /** For issue-setting lint: the file's path (relative) and its text. */
  file?: {path: string; text: string}
  /**
   * Locations computed earlier by `locateFindings`, while the payloads they point into were still
   * held (they may have been dropped since): used before anything else.
   */
  located?: ReadonlyMap<Finding, FindingLocation>
  /**
   * Line tables of project payloads kept between calls of `locateFindings`, by payload: a live scan
   * locates project by project, and an ancestor's table is then built once, not once per descendant
   * that points into it. A table goes with its payload.
   */
  lineTables?: WeakMap<object, PrettyJsonLines>
}

export interface FindingLocation {
  /** Relative URI of the artifact, e.g. `onedev/projects/group/repo.json`. */
  uri: string
  /** 1-based line of the pointer's value in that file. */
  line: number
  /** 1-based column where the value (or its member's key) starts on that line. */
  column: number
  /**
   * The file in the snapshot folder's layout, relative to the folder, unencoded, with `/`
   * (`projects/acme/app.json`, `roles.json`, `server.json`); absent for a linted file's findings.
   */
  snapshotFile?: string
  /** `<project path>#<pointer>`, `roles#/<index><pointer>` or `<file>#<pointer>`. */
  fullyQualifiedName: string
}

export const SNAPSHOT_ROOT = 'onedev'
export const ROLES_FILE = `${SNAPSHOT_ROOT}/${SNAPSHOT_ROLES_FILE}`
/** Where findings that belong to no project, role or file are placed. */
export const SERVER_FILE = `${SNAPSHOT_ROOT}/${SNAPSHOT_SERVER_FILE}`

export function locationSourceFromModel(model: AuditModel): LocationSource {
  const roleIndexes = new Map(model.roles.map((role) => [role.id, role.index]))
  return {
    projectRaw: (id) => model.projectsById.get(id)?.raw ?? model.projects.find((project) => project.id === id)?.raw,
    projectPath: (id) => model.projectsById.get(id)?.path ?? model.projects.find((project) => project.id === id)?.path,
    rolesRaw: model.rolesRaw,
    roleIndex: (id) => roleIndexes.get(id),
    ...(model.serverData ? {serverData: model.serverData} : {}),
  }
}

/** A relative path as a relative URI reference: forward slashes, each segment percent-encoded. */
export function pathToRelativeUri(path: string): string {
  const relativePath = isAbsolute(path) ? relative(process.cwd(), path) : path
  return relativePath
    .split(sep === '\\' ? /[\\/]/ : /\//)
    .filter((segment, i) => segment !== '' && !(segment === '.' && i === 0))
    .map((segment) => encodeURIComponent(segment))
    .join('/')
}

/** Lines in the file `collect --output-dir` writes for this payload (JSON.stringify(raw, null, 2)). */
function pretty(raw: unknown): PrettyJsonLines | undefined {
  return raw === undefined ? undefined : new PrettyJsonLines(raw)
}

/**
 * Returns a function that locates findings. The line table of each project (and of the roles
 * listing) is built once, from the payload's structure, and reused for all its findings.
 */
export function createLocator(source: LocationSource | undefined): (finding: Finding) => FindingLocation {
  let rolesText: PrettyJsonLines | undefined | null = null
  let serverText: PrettyJsonLines | undefined | null = null
  let fileText: JsonLines | undefined | null = null

  // A project's file and line table are the same for all its findings (thousands in a large audit).
  const projects = new Map<number, {uri: string; snapshotFile: string; lines: PrettyJsonLines | undefined}>()
  const projectFile = (id: number, path: string) => {
    let file = projects.get(id)
    if (!file) {
      const snapshotFile = source?.projectFile?.(id) ?? projectFilePath(path)
      file = {uri: pathToRelativeUri(`${SNAPSHOT_ROOT}/${snapshotFile}`), snapshotFile, lines: projectLines(source?.projectRaw(id))}
      projects.set(id, file)
    }
    return file
  }
  const START = {line: 1, column: 1}

  const projectLines = (raw: unknown): PrettyJsonLines | undefined => {
    const tables = source?.lineTables
    if (!tables || raw === null || typeof raw !== 'object') return pretty(raw)
    let lines = tables.get(raw)
    if (!lines) tables.set(raw, (lines = new PrettyJsonLines(raw)))
    return lines
  }

  const roleIndexOf = (roleId: number): number | undefined => {
    const index = source?.roleIndex?.(roleId)
    if (index !== undefined) return index
    const found = source?.rolesRaw?.findIndex(
      (raw) => typeof raw === 'object' && raw !== null && (raw as {id?: unknown}).id === roleId,
    )
    return found === undefined || found < 0 ? undefined : found
  }

  return (finding) => {
    const known = source?.located?.get(finding)
    if (known !== undefined) return known
    if (finding.file !== undefined) {
      const path = source?.file?.path ?? finding.file
      if (fileText === null) fileText = source?.file ? new JsonLines(source.file.text) : undefined
      return {
        uri: pathToRelativeUri(path) || SERVER_FILE,
        ...(fileText?.positionOf(finding.pointer) ?? START),
        fullyQualifiedName: `${path}#${finding.pointer}`,
      }
    }
    if (finding.document === 'server') {
      if (serverText === null) serverText = pretty(source?.serverData)
      return {uri: SERVER_FILE, ...(serverText?.positionOf(finding.pointer) ?? START), fullyQualifiedName: `server#${finding.pointer}`, snapshotFile: SNAPSHOT_SERVER_FILE}
    }
    const owner = finding.source ?? finding.project
    if (owner) {
      const path = source?.projectPath(owner.id) ?? owner.path
      const file = projectFile(owner.id, path)
      return {
        uri: file.uri,
        ...(file.lines?.positionOf(finding.pointer) ?? START),
        fullyQualifiedName: `${path}#${finding.pointer}`,
        snapshotFile: file.snapshotFile,
      }
    }
    if (finding.role) {
      const index = roleIndexOf(finding.role.id)
      if (rolesText === null) rolesText = pretty(source?.rolesRaw)
      const pointer = index === undefined ? '' : `/${index}${finding.pointer}`
      return {
        uri: ROLES_FILE,
        ...(index === undefined ? START : (rolesText?.positionOf(pointer) ?? START)),
        fullyQualifiedName: `roles#${pointer}`,
        snapshotFile: SNAPSHOT_ROLES_FILE,
      }
    }
    return {uri: SERVER_FILE, ...START, fullyQualifiedName: `server#${finding.pointer}`, snapshotFile: SNAPSHOT_SERVER_FILE}
  }
}

/**
 * The locations of some findings, computed now: for a caller that judges projects one by one and
 * drops each raw payload once its findings are located (pass the result as `located`). Use one call
 * per batch: the line tables built here are dropped with the returned locator.
 */
export function locateFindings(findings: Iterable<Finding>, source: LocationSource): Map<Finding, FindingLocation> {
  const locate = createLocator(source)
  const located = new Map<Finding, FindingLocation>()
  for (const finding of findings) located.set(finding, locate(finding))
  return located
}
