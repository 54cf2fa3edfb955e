/**
 * Judges a build spec as one OneDev release reads it, from the facts of facts.ts: OneDev's own
 * migrations first (migrate.ts) when the release is newer than the spec's `version`, then every node
 * against the properties of its class. Returns the problems, each naming where it is, what is wrong and
 * the fact it breaks (tag, file, line); none means the release loads the spec and validates it.
 */
import {CORE_SCHEMA, defineMappingTag, load} from 'js-yaml'

import type {ClassFact, PropertyFact, ReleaseFacts} from './facts.js'
import {migrate, NotReplayed, TAGGED, type YamlNode} from './migrate.js'

/** OneDev's YAML tags (`!CommandStep`) as a `type` key, the mapping marked TAGGED. */
const tagged = defineMappingTag<YamlNode>('!', {
  matchByTagPrefix: true,
  create: (tagName) => ({type: tagName.slice(1), [TAGGED]: true}),
  addPair: (carrier, key, value) => {
    carrier[String(key)] = value
    return ''
  },
  has: (carrier, key) => Object.prototype.hasOwnProperty.call(carrier, String(key)),
  keys: (result) => Object.keys(result),
  get: (result, key) => result[String(key)],
  identify: () => false,
})

export function parseBuildSpec(text: string): YamlNode {
  return load(text, {schema: CORE_SCHEMA.withTags(tagged)}) as YamlNode
}

export interface CheckOptions {
  /** The job secrets the project is told to have (HttpCredential#isValid: the secret must exist). */
  secrets: readonly string[]
}

const isNode = (value: unknown): value is YamlNode => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every problem OneDev `release` would have with the build spec `text`. */
export function checkBuildSpec(text: string, release: ReleaseFacts, options: CheckOptions): string[] {
  const doc = parseBuildSpec(text)
  if (!isNode(doc)) return ['the build spec is not a YAML mapping']
  const version = doc.version
  // VersionedYamlDoc#getVersion: "Unable to find version".
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return [`version: ${JSON.stringify(version)} is not a build spec version`]
  if (version > release.specVersion.value) {
    return [`version: ${version}: OneDev ${release.tag} reads build specs up to version ${release.specVersion.value} (${release.specVersion.source}); it fails with "${release.tooNew.message} … migrate${version}" (${release.tooNew.source})`]
  }
  try {
    migrate(doc, version, release.specVersion.value)
  } catch (error) {
    if (error instanceof NotReplayed) return [`${release.tag}: ${error.message}`]
    throw error
  }
  const problems: string[] = []
  const {version: _, ...spec} = doc
  checkNode(spec, 'BuildSpec', '', release, options, problems)
  const names = (Array.isArray(doc.jobs) ? doc.jobs : []).filter(isNode).map((job) => job.name)
  for (const name of new Set(names.filter((name, index) => names.indexOf(name) !== index))) {
    problems.push(`jobs: the job name ${JSON.stringify(name)} is used twice: "Duplicate job name" (${release.uniqueJobNames.source})`)
  }
  return problems
}

/** A class and its ancestors, nearest first. */
function lineage(release: ReleaseFacts, name: string): ClassFact[] {
  const out: ClassFact[] = []
  for (let current: string | undefined = name; current; current = release.classes[current]?.extends) {
    const fact = release.classes[current]
    if (!fact) break
    out.push(fact)
  }
  return out
}

/** The properties of a class, a subclass's override first. */
function propertiesOf(release: ReleaseFacts, name: string): Map<string, PropertyFact> {
  const properties = new Map<string, PropertyFact>()
  for (const fact of lineage(release, name)) for (const [key, property] of Object.entries(fact.properties)) if (!properties.has(key)) properties.set(key, property)
  return properties
}

function isSubclass(release: ReleaseFacts, name: string, of: string): boolean {
  for (let current: string | undefined = name; current; current = release.classes[current]?.extends) if (current === of) return true
  return false
}

function checkNode(node: unknown, declared: string, where: string, release: ReleaseFacts, options: CheckOptions, problems: string[]): void {
  const at = where || '(the build spec)'
  if (!isNode(node)) {
    problems.push(`${at}: a ${declared} must be a mapping`)
    return
  }
  let name = declared
  const declaredFact = release.classes[declared]
  const polymorphic = declaredFact === undefined || declaredFact.abstract === true
  // `type` names the class (a YAML tag read as a key, or a key itself from 13.0.x): no property.
  const keys = Object.keys(node).filter((key) => key !== 'type')
  if (!node[TAGGED] && 'type' in node && !release.typeKey) problems.push(`${at}.type: OneDev ${release.tag} names a class only with a YAML tag (\`!${String(node.type)}\`): \`type\` is no property of ${declared}`)
  if (polymorphic || 'type' in node) {
    const type = node.type
    if (typeof type !== 'string') {
      problems.push(`${at}: a ${declared} needs its class (a YAML tag${release.typeKey ? ' or a type key' : ''})`)
      return
    }
    const fact = release.classes[type]
    if (!fact) {
      problems.push(`${at}: ${type} is not in the fact table of ${release.tag} (add its class before using it)`)
      return
    }
    if (fact.abstract || !isSubclass(release, type, declared)) {
      problems.push(`${at}: ${type} is not a ${declared} OneDev ${release.tag} can create (${fact.source})`)
      return
    }
    name = type
  }
  const properties = propertiesOf(release, name)
  const label = node.name === undefined ? `${at} (${name})` : `${at} (${name} ${JSON.stringify(node.name)})`
  for (const key of keys) {
    const property = properties.get(key)
    if (!property) {
      problems.push(`${label}: ${key} is no property of ${name} at ${release.tag} (${lineage(release, name)[0]!.source}): "Malformed build spec"`)
      continue
    }
    checkValue(node[key], property, `${where}${where ? '.' : ''}${key}`, release, options, problems)
  }
  for (const [key, property] of properties) {
    if (!property.required) continue
    if (property.shownWhen && !isTrue(node, property.shownWhen.property, properties.get(property.shownWhen.property))) continue
    const present = Object.prototype.hasOwnProperty.call(node, key)
    if (!present && property.initial && property.initial.java !== 'null') continue
    const value = node[key]
    if (!present || value === null || (property.required.kind === 'NotEmpty' && (value === '' || (Array.isArray(value) && value.length === 0)))) {
      problems.push(`${label}: ${key} is required (@${property.required.kind}, ${property.required.source})`)
    }
  }
}

/** A boolean property of `node`: its value, else its initial value. */
function isTrue(node: YamlNode, key: string, property: PropertyFact | undefined): boolean {
  return Object.prototype.hasOwnProperty.call(node, key) ? node[key] === true : property?.initial?.java === 'true'
}

function checkValue(value: unknown, property: PropertyFact, where: string, release: ReleaseFacts, options: CheckOptions, problems: string[]): void {
  const type = property.javaType
  const list = /^List<(\w+)>$/.exec(type)
  if (value === null) return // required-ness is judged by checkNode
  if (list) {
    if (!Array.isArray(value)) {
      problems.push(`${where}: a list is expected (${property.source})`)
      return
    }
    const element = list[1]!
    value.forEach((item, index) => {
      if (element === 'String') {
        if (typeof item !== 'string') problems.push(`${where}[${index}]: a string is expected`)
      } else if (release.classes[element]) checkNode(item, element, `${where}[${index}]`, release, options, problems)
      else problems.push(`${where}[${index}]: ${element} is not in the fact table of ${release.tag} (add its class before using it)`)
    })
    return
  }
  switch (type) {
    case 'String':
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') problems.push(`${where}: a scalar is expected (${property.source})`)
      else {
        if (property.cron) checkCron(String(value), where, property.cron, problems)
        if (property.jobSecret && !options.secrets.includes(String(value))) {
          problems.push(`${where}: ${JSON.stringify(value)} is no job secret the example asks for (${options.secrets.join(', ')}): "Secret not found" (${property.jobSecret})`)
        }
      }
      return
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${where}: true or false is expected (${property.source})`)
      return
    case 'int':
    case 'long':
    case 'Integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) problems.push(`${where}: an integer is expected (${property.source})`)
      else if (property.min && value < property.min.value) problems.push(`${where}: ${value} is below ${property.min.value} (@Min, ${property.min.source})`)
      return
  }
  const values = release.enums[type]
  if (values) {
    if (!values.values.some((known) => known.value === value)) problems.push(`${where}: ${JSON.stringify(value)} is no ${type} of ${release.tag} (${values.values.map((known) => known.value).join(', ')})`)
    return
  }
  if (release.classes[type]) {
    checkNode(value, type, where, release, options, problems)
    return
  }
  problems.push(`${where}: ${type} is not in the fact table of ${release.tag} (add it before using it)`)
}

/**
 * What `new org.quartz.CronExpression(value)` requires of the fields (CronExpressionValidator): six or
 * seven fields, and `?` in exactly one of day-of-month and day-of-week (Quartz supports neither both
 * nor none of them).
 */
function checkCron(expression: string, where: string, source: string, problems: string[]): void {
  const fields = expression.trim().split(/\s+/)
  const question = [fields[3], fields[5]].filter((field) => field === '?').length
  if ((fields.length !== 6 && fields.length !== 7) || question !== 1) {
    problems.push(`${where}: ${JSON.stringify(expression)} is not a Quartz cron expression (seconds minutes hours day-of-month month day-of-week [year], \`?\` in one of the day fields; ${source})`)
  }
}
