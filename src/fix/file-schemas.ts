/**
 * The published schemas of the plan and undo files (schemas/fix-plan.schema.json,
 * schemas/fix-undo.schema.json) as validators: the JSON Schema is the one source, zod reads it.
 * Loaded only when such a file is read.
 */
import {z} from 'zod'

import planSchema from '../../schemas/fix-plan.schema.json' with {type: 'json'}
import undoSchema from '../../schemas/fix-undo.schema.json' with {type: 'json'}

let plan: z.ZodType | undefined
let undo: z.ZodType | undefined

export function fileSchema(kind: 'plan' | 'undo'): z.ZodType {
  if (kind === 'plan') return (plan ??= z.fromJSONSchema(planSchema as unknown as Parameters<typeof z.fromJSONSchema>[0]))
  return (undo ??= z.fromJSONSchema(undoSchema as unknown as Parameters<typeof z.fromJSONSchema>[0]))
}
