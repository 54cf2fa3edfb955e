/**
 * Yes/no checks compiled from zod schemas into TypeScript source, at `npm run generate`
 * (scripts/generate.mjs writes src/model/payload-checks.ts and src/snapshot/snapshot-checks.ts).
 * A check is true exactly when the schema's safeParse succeeds, for the common case (a valid payload)
 * without zod: it costs a few µs, allocates nothing, and a start does not load zod at all (about 100 ms
 * of CPU). When a check says no, the caller imports the zod schema and runs it to get the issues, so
 * zod stays the single source of truth for what is valid and what the errors say
 * (test/model/property.test.ts compares both). Only the schema kinds the payload schemas use compile;
 * any other makes the generation fail, naming where.
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

/** The generated module: one exported check per named schema, and the object checks they share. */
export function checksSource(schemas: Record<string, z.ZodType>, header: string): string {
  const functions = new Map<z.ZodType, {name: string; body: string}>()
  const named = new Map<z.ZodType, string>()
  let depth = 0

  function objectCheck(schema: z.ZodType, where: string): string {
    const known = functions.get(schema)
    if (known) return known.name
    const def = defOf(schema)
    const catchall = def.catchall ? defOf(def.catchall).type : 'strip'
    if (catchall !== 'unknown' && catchall !== 'any' && catchall !== 'strip' && catchall !== 'never') throw new Error(`${where}: catchall ${catchall} does not compile`)
    const exportedName = named.get(schema)
    const entry = {name: exportedName ?? `object${functions.size}`, body: ''}
    functions.set(schema, entry)
    const keys = Object.keys(def.shape ?? {})
    const body = keys.map((key, i) => {
      const test = expression(def.shape![key]!, `field${i}`, `${where}.${key}`)
      return `  const field${i} = own(value, ${JSON.stringify(key)})\n  if (!(${test})) return false`
    })
    if (catchall === 'never') body.push(`  if (!Object.keys(value).every((key) => ${JSON.stringify(keys)}.includes(key))) return false`)
    const head = `${exportedName ? 'export ' : ''}function ${entry.name}(value: unknown): boolean {\n  if (!isObject(value)) return false`
    entry.body = [head, ...body, '  return true', '}'].join('\n')
    return entry.name
  }

  /** A boolean expression saying whether `value` (a variable) passes `schema`. */
  function expression(schema: z.ZodType, value: string, where: string): string {
    const def = defOf(schema)
    const checks = def.checks ?? []
    if (checks.length > 0 && !(def.type === 'string' && checks.every((c) => c._zod.def.check === 'min_length'))) {
      throw new Error(`${where}: checks ${checks.map((c) => c._zod.def.check).join(', ')} do not compile`)
    }
    switch (def.type) {
      case 'unknown':
      case 'any':
        return 'true'
      case 'string': {
        const minimum = Math.max(0, ...checks.map((c) => c._zod.def.minimum ?? 0))
        return minimum > 0 ? `(typeof ${value} === 'string' && (${value} as string).length >= ${minimum})` : `typeof ${value} === 'string'`
      }
      case 'boolean':
        return `typeof ${value} === 'boolean'`
      case 'number':
        if (def.format === 'safeint') return `Number.isSafeInteger(${value})`
        if (def.format === undefined) return `(typeof ${value} === 'number' && Number.isFinite(${value}))`
        throw new Error(`${where}: number format ${def.format} does not compile`)
      case 'optional':
        return `(${value} === undefined || ${expression(def.innerType!, value, where)})`
      case 'nullable':
        return `(${value} === null || ${expression(def.innerType!, value, where)})`
      case 'array': {
        const item = `item${depth++}`
        return `(Array.isArray(${value}) && (${value} as unknown[]).every((${item}) => ${expression(def.element!, item, `${where}[]`)}))`
      }
      case 'literal':
        return `${JSON.stringify(def.values ?? [])}.includes(${value} as never)`
      case 'enum':
        return `${JSON.stringify(Object.values(def.entries ?? {}))}.includes(${value} as never)`
      case 'record': {
        const key = def.keyType ? defOf(def.keyType) : null
        if (key?.type !== 'string' || (key.checks !== undefined && key.checks.length > 0)) throw new Error(`${where}: record keys other than plain strings do not compile`)
        const item = `item${depth++}`
        return `(isObject(${value}) && Object.values(${value} as object).every((${item}) => ${expression(def.valueType!, item, `${where}{}`)}))`
      }
      case 'object':
        return `${objectCheck(schema, where)}(${value})`
      default:
        throw new Error(`${where}: zod type ${def.type} does not compile`)
    }
  }

  // A named object schema is its own exported function (the objects inside it get numbered ones).
  for (const [name, schema] of Object.entries(schemas)) {
    if (defOf(schema).type === 'object' && !named.has(schema)) named.set(schema, checkName(name))
  }
  const exported = Object.entries(schemas).map(([name, schema]) => {
    if (named.get(schema) === checkName(name)) {
      objectCheck(schema, name)
      return null
    }
    return `export const ${checkName(name)} = (value: unknown): boolean => ${expression(schema, 'value', name)}`
  })
  return [
    `// ${header}`,
    '/* eslint-disable */',
    'type Json = Record<string, unknown>',
    'const isObject = (value: unknown): value is Json => value !== null && typeof value === \'object\' && !Array.isArray(value)',
    'const own = (o: Json, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined)',
    '',
    ...exported.filter((line) => line !== null),
    ...[...functions.values()].map(({body}) => body + '\n'),
  ].join('\n')
}

/** `ProjectSettingSchema` → `isProjectSetting`. */
export function checkName(schemaName: string): string {
  return `is${schemaName.replace(/Schema$/, '')}`
}
