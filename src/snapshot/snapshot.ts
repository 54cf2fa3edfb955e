/**
 * Snapshot files: the model's redacted raw payloads on disk, as one JSON document
 * (`collect --output FILE`) or as a folder of pretty-printed files (`collect --output-dir DIR`,
 * see layout.ts). Loading re-ingests every payload through src/model/ingest.ts, so redaction and
 * normalization run again: a snapshot edited by hand with a secret in it still never leaks one.
 */
import {createHash} from 'node:crypto'
import type {Stats} from 'node:fs'
import {lstat, mkdir, rm, stat} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {ingestProjectSetting, ingestProjectSettingNow, ingestRoles} from '../model/ingest.js'
import {describeIssues, schemaIssues} from '../model/normalize.js'
import {redactDeep, redactProjectSetting, redactServerPayload, redactText, redactUrl} from '../model/redact.js'
import {versionText} from '../model/server-version.js'
import {type AuditError, type AuditModel, ERROR_KINDS, type ErrorKind, type NotEvaluated, type Project, type RepositoryInfo, type ServerData} from '../model/types.js'
import {INDEX_FILE, PROJECTS_DIR, ROLES_FILE, SERVER_DATA_FILE, SNAPSHOT_SCHEMA_URL, SNAPSHOT_VERSION, isSafeProjectFile, projectFilePath} from './layout.js'
import {isSnapshot, isSnapshotIndexEnvelope} from './snapshot-checks.js'
import type {IndexProject, Snapshot, SnapshotIndex, SnapshotProject} from './snapshot-types.js'
import {FileWriteError, readRegularFile, readTextFile, writeFileAtomic} from '../util/fs.js'
import {isObject, parseJson} from '../util/json.js'

export type {IndexProject, Snapshot, SnapshotIndex, SnapshotProject}

export interface ToolInfo {
  name: string
  version: string
}

/** A snapshot that cannot be read or written; `error` is safe to print. */
export class SnapshotError extends Error {
  readonly error: AuditError
  constructor(error: AuditError) {
    super(error.message)
    this.name = 'SnapshotError'
    this.error = error
  }
}

function fail(kind: ErrorKind, message: string): never {
  throw new SnapshotError({kind, message})
}

function errorCode(error: unknown): string {
  const code = (error as {code?: unknown} | null)?.code
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'error'
}

/** Snapshots of other onedev-audit versions: read when their format version is this one's, else refused saying why. */
function checkVersion(document: unknown, label: string): void {
  const version = isObject(document) ? document.snapshotVersion : undefined
  if (version === SNAPSHOT_VERSION) return
  const tool = isObject(document) && isObject(document.tool) && typeof document.tool.version === 'string' ? ` (written by onedev-audit ${document.tool.version.slice(0, 40)})` : ''
  if (typeof version === 'number' && version > SNAPSHOT_VERSION) {
    fail('config', `${label}: snapshot format ${version}${tool} is newer than this onedev-audit reads (${SNAPSHOT_VERSION}): upgrade onedev-audit`)
  }
  if (typeof version === 'number') fail('config', `${label}: snapshot format ${version}${tool} is no longer read: collect the snapshot again`)
  fail('config', `${label}: not a snapshot written by onedev-audit collect (no snapshotVersion)`)
}

/** The envelope's issues: none when its generated check passes, else zod's (snapshot-schemas.ts, loaded then). */
async function validate<T>(check: (value: unknown) => boolean, schema: 'SnapshotSchema' | 'SnapshotIndexSchema', value: unknown, label: string): Promise<T> {
  checkVersion(value, label)
  const issues = await schemaIssues(check, async () => (await import('./snapshot-schemas.js'))[schema], value, value)
  if (issues.length > 0) fail('config', describeIssues(label, issues))
  return value as T
}

/** The index's check: its envelope's, and every project file under projects/ (the one refinement the generated check leaves out). */
function isSnapshotIndex(value: unknown): boolean {
  return isSnapshotIndexEnvelope(value) && (value as SnapshotIndex).projects.every(({settingFile}) => settingFile === null || isSafeProjectFile(settingFile))
}

// ---------------------------------------------------------------- model → snapshot

/** Audited projects first (in the model's order), then ancestors fetched for inheritance. */
function projectsWithFlags(model: AuditModel): {project: Project; audited: boolean}[] {
  const out: {project: Project; audited: boolean}[] = []
  const seen = new Set<number>()
  for (const project of model.projects) {
    if (seen.has(project.id)) continue
    seen.add(project.id)
    out.push({project, audited: true})
  }
  const ancestors = [...model.projectsById.values()].filter((project) => !seen.has(project.id))
  ancestors.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.id - b.id))
  for (const project of ancestors) {
    seen.add(project.id)
    out.push({project, audited: false})
  }
  return out
}

/** The redacted setting to store (redacted again: cheap, idempotent, and safe against a model built elsewhere). */
function storedSetting(project: Project): Record<string, unknown> | null {
  return isObject(project.raw) ? (redactProjectSetting(project.raw) as Record<string, unknown>) : null
}

function storedErrors(errors: readonly AuditError[]): AuditError[] {
  return errors.map((error) => ({...error, message: redactText(error.message, [])}))
}

/** The server URL without credentials (left exactly as given when it has none). */
function safeServer(server: AuditModel['server']): Snapshot['server'] {
  if (!server) return null
  const {url, facts} = redactUrl(server.url)
  // Redaction changed more than the URL's spelling (a credential, a hidden query value, a secret path).
  const masked = facts.scheme === null || url !== new URL(server.url).href
  // The version as the collection read it (null: asked, could not be read); absent when never asked.
  return {url: masked ? url : server.url, apiPrefix: server.apiPrefix, ...(server.version !== undefined ? {version: versionText(server.version)} : {})}
}

/** The single-document snapshot of a model. */
export function toSnapshot(model: AuditModel, tool: ToolInfo): Snapshot {
  return {
    $schema: SNAPSHOT_SCHEMA_URL,
    snapshotVersion: SNAPSHOT_VERSION,
    tool: {name: tool.name, version: tool.version},
    server: safeServer(model.server),
    collectedAt: model.collectedAt ?? new Date().toISOString(),
    projects: projectsWithFlags(model).map(({project, audited}) => ({
      id: project.id,
      path: project.path,
      name: project.name,
      parentId: project.parentId,
      audited,
      ...(audited && project.repository !== undefined ? {repository: project.repository} : {}),
      ...(project.defaultRoleId !== undefined ? {defaultRoleId: project.defaultRoleId} : {}),
      setting: storedSetting(project),
    })),
    roles: model.rolesRaw.map((role, index) => redactDeep(role, [index])) as Snapshot['roles'],
    ...(model.serverData ? {serverData: storedServerData(model.serverData)} : {}),
    ...(model.notEvaluated ? {notEvaluated: model.notEvaluated.map((entry) => ({...entry}))} : {}),
    errors: storedErrors(model.errors),
  }
}

/** The server data document, each payload redacted again by its path (cheap, idempotent). */
function storedServerData(data: ServerData): ServerData {
  const out: ServerData = {}
  for (const key of Object.keys(data)) out[key] = redactServerPayload(key, data[key])
  return out
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n'
}

/**
 * Writes through a temporary file in the same folder and renames it (util/fs): readers never see half
 * a file. Mode 0600. `follow`: a file the user named is written where a symbolic link there leads (a
 * device such as /dev/null written into, never replaced); a file of a snapshot folder never is (a link
 * there is replaced by the file).
 */
async function writeAtomic(file: string, text: string, follow: boolean): Promise<void> {
  try {
    await writeFileAtomic(file, text, 0o600, follow)
  } catch (error) {
    if (error instanceof FileWriteError) fail('io', error.message)
    throw error
  }
}

/**
 * Writes the model as one JSON document (atomically, mode 0600). It is written compactly: a
 * 10,000-project snapshot parses about a third faster than pretty-printed (the folder layout is
 * the one meant for people and diffs).
 */
export async function saveSnapshotFile(model: AuditModel, file: string, tool: ToolInfo): Promise<void> {
  await writeAtomic(file, JSON.stringify(toSnapshot(model, tool)) + '\n', true)
}

async function inBatches<T>(items: readonly T[], size: number, task: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(task))
  }
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

/** What the index already in `dir` (if it is a snapshot folder: read without following a link) says was written there. */
async function previousFiles(dir: string): Promise<{listed: string[]; hashes: Map<string, string>}> {
  const none = {listed: [], hashes: new Map<string, string>()}
  let index: unknown
  try {
    index = JSON.parse(await readTextFile(join(dir, INDEX_FILE), {noFollow: true}))
  } catch {
    return none
  }
  if (!isObject(index)) return none
  const ours = (file: unknown): file is string => typeof file === 'string' && (isSafeProjectFile(file) || file === SERVER_DATA_FILE)
  const projects = Array.isArray(index.projects) ? index.projects : []
  const listed = [...projects.map((entry: unknown) => (isObject(entry) ? entry.settingFile : null)), index.serverFile].filter(ours)
  const hashes = new Map<string, string>()
  if (isObject(index.fileHashes)) for (const [file, hash] of Object.entries(index.fileHashes)) if (ours(file) && typeof hash === 'string') hashes.set(file, hash)
  return {listed: [...new Set([...listed, ...hashes.keys()])], hashes}
}

/**
 * The folders from `dir` down to `relative` (a path with `/`), each made when missing (mode 0700), and
 * each a folder of its own: a symbolic link there (to a folder elsewhere), or a file, is refused, so
 * that nothing is ever written or removed outside `dir`. `checked` keeps the folders seen already.
 */
async function ownFolders(dir: string, relative: string, checked: Set<string>): Promise<void> {
  let path = dir
  for (const part of relative.split('/')) {
    path = join(path, part)
    if (checked.has(path)) continue
    try {
      await mkdir(path, {mode: 0o700})
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') fail('io', `${path}: cannot create folder (${errorCode(error)})`)
      const found = await lstat(path)
      if (found.isSymbolicLink()) fail('io', `${path}: a symbolic link inside the output folder: refused, nothing is written through it (remove the link, or choose another --output-dir)`)
      if (!found.isDirectory()) fail('io', `${path}: not a folder, inside the output folder: refused`)
    }
    checked.add(path)
  }
}

/**
 * Removes `file` (relative to `dir`) only when it is the tool's own: every folder on the way a real
 * folder (lstat: no link followed), the file itself a regular file, read without following a link,
 * with exactly the hash the previous index recorded when it was written; and still the same file
 * (device and inode) right before it is removed. Returns whether it was removed.
 */
async function removeIfOurs(dir: string, file: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) return false
  const parts = file.split('/')
  let path = dir
  for (const part of parts.slice(0, -1)) {
    path = join(path, part)
    const found = await lstat(path).catch(() => null)
    if (!found?.isDirectory()) return false
  }
  path = join(path, parts.at(-1)!)
  try {
    let opened: Stats | undefined
    const bytes = await readRegularFile(path, {noFollow: true, check: (found) => (opened = found)})
    if (opened === undefined || sha256(bytes) !== hash) return false
    const now = await lstat(path).catch(() => null)
    if (now === null || now.dev !== opened.dev || now.ino !== opened.ino) return false
    await rm(path)
    return true
  } catch {
    return false
  }
}

/**
 * Writes the model as a folder: `projects/<path>.json` and `roles.json`, each exactly
 * JSON.stringify(raw, null, 2) plus a newline, then `snapshot.json` (the index: ids, paths, parents,
 * audited flags, setting files, server, errors, collectedAt, and the hash of each file written).
 * Files are written atomically, mode 0600, never through a symbolic link; a folder inside `dir` that
 * is a link is refused before anything is written. Files an earlier collect wrote into the same folder
 * that are no longer used are removed when they are still exactly as written (removeIfOurs); the
 * others are kept, and returned so that the command names them.
 */
export async function saveSnapshotDir(model: AuditModel, dir: string, tool: ToolInfo): Promise<{kept: string[]}> {
  const snapshot = toSnapshot(model, tool)
  try {
    await mkdir(dir, {recursive: true, mode: 0o700})
  } catch (error) {
    fail('io', `${dir}: cannot create folder (${errorCode(error)})`)
  }
  const checked = new Set<string>()
  await ownFolders(dir, PROJECTS_DIR, checked)
  const previous = await previousFiles(dir)
  // Different paths always give different names; on case-insensitive file systems two names may
  // still meet (`Repo` and `repo`): the later one then gets its id as a suffix.
  const taken = new Set<string>()
  const writes: {file: string; setting: unknown}[] = []
  const projects: IndexProject[] = snapshot.projects.map((entry) => {
    let settingFile: string | null = null
    if (entry.setting !== null) {
      settingFile = projectFilePath(entry.path)
      if (taken.has(settingFile.toLowerCase())) settingFile = projectFilePath(entry.path, String(entry.id))
      taken.add(settingFile.toLowerCase())
      writes.push({file: settingFile, setting: entry.setting})
    }
    return {
      id: entry.id,
      path: entry.path,
      name: entry.name,
      parentId: entry.parentId,
      audited: entry.audited,
      ...(entry.repository !== undefined ? {repository: entry.repository} : {}),
      ...(entry.defaultRoleId !== undefined ? {defaultRoleId: entry.defaultRoleId} : {}),
      settingFile,
    }
  })
  for (const folder of [...new Set(writes.map(({file}) => dirname(file)))].sort()) await ownFolders(dir, folder, checked)
  const fileHashes: Record<string, string> = {}
  const writeOwn = async (file: string, text: string) => {
    await writeAtomic(join(dir, ...file.split('/')), text, false)
    fileHashes[file] = sha256(text)
  }
  await inBatches(writes, 32, ({file, setting}) => writeOwn(file, pretty(setting)))
  await writeOwn(ROLES_FILE, pretty(snapshot.roles))
  if (snapshot.serverData) await writeOwn(SERVER_DATA_FILE, pretty(snapshot.serverData))
  const index: SnapshotIndex = {
    $schema: SNAPSHOT_SCHEMA_URL,
    snapshotVersion: SNAPSHOT_VERSION,
    layout: 'directory',
    tool: snapshot.tool,
    server: snapshot.server,
    collectedAt: snapshot.collectedAt,
    projects,
    rolesFile: ROLES_FILE,
    ...(snapshot.serverData ? {serverFile: SERVER_DATA_FILE} : {}),
    fileHashes: Object.fromEntries(Object.entries(fileHashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(snapshot.notEvaluated ? {notEvaluated: snapshot.notEvaluated} : {}),
    errors: snapshot.errors,
  }
  await writeAtomic(join(dir, INDEX_FILE), pretty(index), false)
  const kept: string[] = []
  for (const file of previous.listed) {
    if (file in fileHashes) continue
    if (!(await removeIfOurs(dir, file, previous.hashes.get(file)))) kept.push(file)
  }
  return {kept}
}

// ---------------------------------------------------------------- snapshot → model

async function readJson(file: string, label: string): Promise<unknown> {
  let text: string
  try {
    // noFollow: a setting file that is a symbolic link (to a file outside the snapshot) is refused;
    // a named pipe or a device, which would never end, too.
    text = await readTextFile(file, {noFollow: true})
  } catch (error) {
    fail('io', `${label}: cannot read (${errorCode(error)})`)
  }
  try {
    // Line, column and reason, in words that quote nothing of the text (which may hold anything).
    return parseJson(text, label)
  } catch (error) {
    fail('config', error instanceof Error ? error.message : `${label}: not valid JSON`)
  }
}

interface LoadedProject {
  id: number
  path: string
  name: string | null
  parentId: number | null
  audited: boolean
  repository?: RepositoryInfo | null | undefined
  defaultRoleId?: number | null | undefined
  setting: unknown
}

function errorKey(error: AuditError): string {
  return JSON.stringify([error.kind, error.message, error.project?.id ?? null, error.pointer ?? null, error.path ?? null, error.status ?? null])
}

async function buildModel(
  envelope: {server: Snapshot['server']; collectedAt: string; errors: AuditError[]; serverData?: ServerData | undefined; notEvaluated?: NotEvaluated[] | undefined},
  projects: LoadedProject[],
  roles: unknown[],
  label: string,
): Promise<AuditModel> {
  const model: AuditModel = {
    server: safeServer(envelope.server),
    projects: [],
    projectsById: new Map(),
    roles: [],
    rolesRaw: [],
    errors: [],
    collectedAt: envelope.collectedAt,
  }
  const fresh: AuditError[] = []
  for (const [index, entry] of projects.entries()) {
    if (model.projectsById.has(entry.id)) fail('config', `${label}: /projects/${index}/id: duplicate project id ${entry.id}`)
    const project: Project = {id: entry.id, path: entry.path, name: entry.name, parentId: entry.parentId, setting: null, raw: null}
    // Absent in snapshots of older versions: unknown, judged as the server that cannot say.
    if (entry.repository !== undefined) project.repository = entry.repository
    if (entry.defaultRoleId !== undefined) project.defaultRoleId = entry.defaultRoleId
    if (entry.setting !== null) {
      // Parsed from the snapshot just now and held nowhere else: redacted in place, not copied.
      // Waits (for zod's issues) only when the setting fails its generated checks.
      const ref = {id: entry.id, path: entry.path}
      const now = ingestProjectSettingNow(entry.setting, ref, {owned: true})
      const ingested = 'failed' in now ? await ingestProjectSetting(now.failed, ref, {owned: true}) : now
      entry.setting = null
      project.setting = ingested.setting
      project.raw = ingested.raw
      for (const error of ingested.errors) fresh.push(error)
    }
    model.projectsById.set(project.id, project)
    if (entry.audited) model.projects.push(project)
  }
  if (envelope.serverData) {
    // Parsed from the snapshot just now: redacted in place, by each payload's path.
    const data: ServerData = {}
    for (const key of Object.keys(envelope.serverData).sort()) data[key] = redactServerPayload(key, envelope.serverData[key], true)
    model.serverData = data
  }
  if (envelope.notEvaluated) model.notEvaluated = envelope.notEvaluated
  const ingested = await ingestRoles(roles, {owned: true})
  model.roles = ingested.roles
  model.rolesRaw = ingested.raw
  fresh.push(...ingested.errors)
  // Errors saved with the snapshot come first; re-ingesting reproduces the payload errors among them.
  const seen = new Set<string>()
  for (const error of [...storedErrors(envelope.errors), ...fresh]) {
    const key = errorKey(error)
    if (seen.has(key)) continue
    seen.add(key)
    model.errors.push(error)
  }
  return model
}

async function loadFolder(dir: string, index: unknown, label: string): Promise<AuditModel> {
  const valid = await validate<SnapshotIndex>(isSnapshotIndex, 'SnapshotIndexSchema', index, label)
  const roles = await readJson(join(dir, ROLES_FILE), ROLES_FILE)
  if (!Array.isArray(roles)) fail('config', `${ROLES_FILE}: (root): expected array`)
  const projects: LoadedProject[] = valid.projects.map((entry) => ({...entry, setting: null}))
  let serverData: ServerData | undefined
  if (valid.serverFile) {
    const data = await readJson(join(dir, SERVER_DATA_FILE), SERVER_DATA_FILE)
    if (!isObject(data)) fail('config', `${SERVER_DATA_FILE}: (root): expected object`)
    serverData = data
  }
  await inBatches([...projects.keys()], 32, async (i) => {
    const file = valid.projects[i]!.settingFile
    if (file === null) return
    const setting = await readJson(join(dir, ...file.split('/')), file)
    if (!isObject(setting)) fail('config', `${file}: (root): expected object`)
    projects[i]!.setting = setting
  })
  return buildModel({...valid, serverData}, projects, roles, label)
}

/**
 * Reads a snapshot written by saveSnapshotFile (a file) or saveSnapshotDir (its folder, or the
 * folder's snapshot.json) and re-ingests it. Throws SnapshotError (kind `io` or `config`) with a
 * one-line message such as `snapshot.json: /projects/3/id: expected integer, got string`.
 */
export async function loadSnapshot(pathOrDir: string): Promise<AuditModel> {
  let info
  try {
    info = await stat(pathOrDir)
  } catch (error) {
    fail('io', `${pathOrDir}: cannot read (${errorCode(error)})`)
  }
  if (info.isDirectory()) {
    return loadFolder(pathOrDir, await readJson(join(pathOrDir, INDEX_FILE), INDEX_FILE), INDEX_FILE)
  }
  const document = await readJson(pathOrDir, pathOrDir)
  if (isObject(document) && Object.prototype.hasOwnProperty.call(document, 'layout')) {
    return loadFolder(dirname(pathOrDir), document, pathOrDir)
  }
  const valid = await validate<Snapshot>(isSnapshot, 'SnapshotSchema', document, pathOrDir)
  return buildModel(valid, valid.projects, valid.roles, pathOrDir)
}

