/**
 * Yes/no checks compiled from zod schemas into TypeScript source, at `npm run generate`
 * (scripts/generate.mjs writes src/model/payload-checks.ts and src/snapshot/snapshot-checks.ts from
 * the pieces of check-kit.ts). A check is true exactly when the schema's safeParse succeeds, for the
 * common case (a valid payload) without zod: it costs a few µs, allocates nothing, and a start does
 * not load zod at all (about 100 ms of CPU). When a check says no, the caller imports the zod schema
 * and runs it to get the issues, so zod stays the single source of truth for what is valid and what
 * the errors say (test/model/property.test.ts compares both). Only the schema kinds the payload
 * schemas use compile; any other makes the generation fail, naming where.
 */
import type {z} from 'zod'

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  element?: z.ZodType
  format?: string
  checks?: {_zod: {def: {check: string; minimum?: number}}}[]
  values?: unknown[]
  entries?: Record<string, unknown>
  keyType?: z.ZodType
  valueType?: z.ZodType
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as {_zod: {def: Def}})._zod.def
}

/** `ProjectSettingSchema` → `isProjectSetting`. */
export function checkName(schemaName: string): string {
  return `is${schemaName.replace(/Schema$/, '')}`
}

/**
 * The generated module: one exported check per named schema, each defined after the named ones it
 * refers to. `kit`: the import path of check-kit.ts from the generated file.
 */
export function checksSource(schemas: Record<string, z.ZodType>, header: string, kit: string): string {
  const names = new Map<z.ZodType, string>()
  for (const [name, schema] of Object.entries(schemas)) if (!names.has(schema)) names.set(schema, checkName(name))
  const used = new Set<string>()
  let refs = new Set<z.ZodType>()

  function source(schema: z.ZodType, where: string, top = false): string {
    const name = names.get(schema)
    if (name !== undefined && !top) {
      refs.add(schema)
      return name
    }
    const def = defOf(schema)
    const checks = def.checks ?? []
    if (checks.length > 0 && !(def.type === 'string' && checks.every((c) => c._zod.def.check === 'min_length'))) {
      throw new Error(`${where}: checks ${checks.map((c) => c._zod.def.check).join(', ')} do not compile`)
    }
    const use = (piece: string) => (used.add(piece), piece)
    switch (def.type) {
      case 'unknown':
      case 'any':
        return use('unknown')
      case 'string': {
        const minimum = Math.max(0, ...checks.map((c) => c._zod.def.minimum ?? 0))
        return minimum > 0 ? `${use('minLength')}(${minimum})` : use('string')
      }
      case 'boolean':
        return use('boolean')
      case 'number':
        if (def.format === 'safeint') return use('integer')
        if (def.format === undefined) return use('number')
        throw new Error(`${where}: number format ${def.format} does not compile`)
      case 'optional': {
        const inner = defOf(def.innerType!)
        if (inner.type === 'nullable' && !names.has(def.innerType!)) return `${use('nullish')}(${source(inner.innerType!, where)})`
        return `${use('optional')}(${source(def.innerType!, where)})`
      }
      case 'nullable':
        return `${use('nullable')}(${source(def.innerType!, where)})`
      case 'array':
        return `${use('array')}(${source(def.element!, `${where}[]`)})`
      case 'literal':
        return `${use('oneOf')}(${JSON.stringify(def.values ?? [])})`
      case 'enum':
        return `${use('oneOf')}(${JSON.stringify(Object.values(def.entries ?? {}))})`
      case 'record': {
        const key = def.keyType ? defOf(def.keyType) : null
        if (key?.type !== 'string' || (key.checks !== undefined && key.checks.length > 0)) throw new Error(`${where}: record keys other than plain strings do not compile`)
        return `${use('record')}(${source(def.valueType!, `${where}{}`)})`
      }
      case 'object': {
        const catchall = def.catchall ? defOf(def.catchall).type : 'strip'
        if (catchall !== 'unknown' && catchall !== 'any' && catchall !== 'strip' && catchall !== 'never') throw new Error(`${where}: catchall ${catchall} does not compile`)
        const fields = Object.entries(def.shape ?? {}).map(([key, field]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${source(field, `${where}.${key}`)}`)
        return `${use('object')}({${fields.join(', ')}}${catchall === 'never' ? ', true' : ''})`
      }
      default:
        throw new Error(`${where}: zod type ${def.type} does not compile`)
    }
  }

  // Each named schema once, after those it refers to.
  const lines: string[] = []
  const done = new Set<z.ZodType>()
  const define = (schema: z.ZodType) => {
    if (done.has(schema)) return
    done.add(schema)
    refs = new Set()
    const text = source(schema, names.get(schema)!, true)
    for (const dependency of refs) define(dependency)
    lines.push(`export const ${names.get(schema)}: Check = ${text}`)
  }
  for (const schema of names.keys()) define(schema)
  return [`// ${header}`, `import {type Check, ${[...used].sort().join(', ')}} from '${kit}'`, '', ...lines, ''].join('\n')
}
