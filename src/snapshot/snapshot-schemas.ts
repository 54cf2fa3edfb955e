/**
 * The zod schemas of a snapshot's envelope (they mirror schemas/snapshot.schema.json). `npm run
 * generate` compiles them into snapshot-checks.ts, which a load checks with; this module (and zod)
 * is loaded only when a snapshot fails that check, for the issues.
 */
import {z} from 'zod'

import {ERROR_KINDS} from '../model/types.js'
import {ROLES_FILE, SERVER_DATA_FILE, SNAPSHOT_VERSION, isSafeProjectFile} from './layout.js'

const ToolSchema = z.strictObject({name: z.string(), version: z.string()})
const ServerSchema = z.strictObject({url: z.string(), apiPrefix: z.string(), version: z.string().nullable().optional()}).nullable()
const integer = () => z.int({error: 'expected integer'})
const ErrorSchema = z.strictObject({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  project: z.strictObject({id: integer(), path: z.string()}).nullable().optional(),
  path: z.string().optional(),
  status: integer().optional(),
  pointer: z.string().optional(),
})
const RepositorySchema = z.strictObject({
  defaultBranch: z.string().min(1).nullable().optional(),
  branches: z.array(z.string()).nullable(),
  tags: z.array(z.string()).nullable(),
  unreadable: z.array(z.enum(['default-branch', 'branches', 'tags'])).optional(),
})
const projectInfo = {
  id: integer(),
  path: z.string(),
  name: z.string().nullable(),
  parentId: integer().nullable(),
  audited: z.boolean(),
  repository: RepositorySchema.nullable().optional(),
  defaultRoleId: integer().nullable().optional(),
}

const NotEvaluatedSchema = z.strictObject({endpoint: z.string(), status: integer(), checks: z.string()})
const optionalData = {serverData: z.record(z.string(), z.unknown()).optional(), notEvaluated: z.array(NotEvaluatedSchema).optional()}

export const SnapshotSchema = z.strictObject({
  $schema: z.string().optional(),
  snapshotVersion: z.literal(SNAPSHOT_VERSION),
  tool: ToolSchema,
  server: ServerSchema,
  collectedAt: z.string(),
  projects: z.array(z.strictObject({...projectInfo, setting: z.record(z.string(), z.unknown()).nullable()})),
  roles: z.array(z.unknown()),
  ...optionalData,
  errors: z.array(ErrorSchema),
})

const indexSchema = (settingFile: z.ZodType<string>) =>
  z.strictObject({
    $schema: z.string().optional(),
    snapshotVersion: z.literal(SNAPSHOT_VERSION),
    layout: z.literal('directory'),
    tool: ToolSchema,
    server: ServerSchema,
    collectedAt: z.string(),
    projects: z.array(z.strictObject({...projectInfo, settingFile: settingFile.nullable()})),
    rolesFile: z.literal(ROLES_FILE),
    serverFile: z.literal(SERVER_DATA_FILE).optional(),
    fileHashes: z.record(z.string(), z.string()).optional(),
    notEvaluated: optionalData.notEvaluated,
    errors: z.array(ErrorSchema),
  })

export const SnapshotIndexSchema = indexSchema(z.string().refine(isSafeProjectFile, 'not a file under projects/'))
/** The same without the refinement, which does not compile: snapshot.ts checks the project files itself. */
export const SnapshotIndexEnvelopeSchema = indexSchema(z.string())
