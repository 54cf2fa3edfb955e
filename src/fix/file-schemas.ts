/**
 * The published schemas of the plan and undo files (schemas/fix-plan.schema.json,
 * schemas/fix-undo.schema.json, copied by `npm run generate` into file-schema-data.ts) as
 * validators: the JSON Schema is the one source, zod reads it. Loaded only when such a file is read.
 */
import {z} from 'zod'

import {planSchema, undoSchema} from './file-schema-data.js'

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0]

let plan: z.ZodType | undefined
let undo: z.ZodType | undefined

export function fileSchema(kind: 'plan' | 'undo'): z.ZodType {
  if (kind === 'plan') return (plan ??= z.fromJSONSchema(planSchema as JsonSchema))
  return (undo ??= z.fromJSONSchema(undoSchema as JsonSchema))
}
