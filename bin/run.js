#!/usr/bin/env node
/**
 * Starts the bundled CLI (dist/cli, built by scripts/bundle.mjs). Each file of the bundle is a script,
 * compiled here with node:vm as the body of a function (as Node compiles a CommonJS module), so that the
 * code V8 compiled for it can be kept on disk and reused by the next start: the code cache. A start
 * with the cache skips most of the parsing and compiling of the ~1 MB of JavaScript a scan runs.
 *
 * The cache holds compiled code only (never data of a run), one file per script in
 * <temporary directory>/onedev-audit-code-cache-<uid>/<node version>-<arch>/, named by the SHA-256 of
 * the script, with a SHA-256 of its content in front. ONEDEV_AUDIT_CODE_CACHE=off turns it off;
 * ONEDEV_AUDIT_CODE_CACHE=DIR puts it in DIR. A cache that is missing, corrupt, rejected by V8 (another
 * V8 or other V8 flags), in a directory writable by others or not ours, or that cannot be written is
 * ignored: the scripts are compiled from their source as without it.
 */
'use strict'
// A CommonJS script (bin/package.json): starting an ES module would first set up Node's ES module
// loader, about 9 ms of CPU on Node 20 that nothing here needs.
const {hash} = require('node:crypto')
const {lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} = require('node:fs')
const nodeModule = require('node:module')
const {tmpdir} = require('node:os')
const {dirname, join, resolve, sep} = require('node:path')
const {fileURLToPath} = require('node:url')
const vm = require('node:vm')

const ROOT = join(__dirname, '..')
const BUNDLE = join(ROOT, 'dist', 'cli') + sep
// How every script of the bundle starts (scripts/bundle.mjs): a function of what it is given.
const SCRIPT_START = "(function (exports, require, module, __filename, __dirname, __import) {'use strict';"
const DIGEST = 32

const codeCache = openCodeCache(process.env.ONEDEV_AUDIT_CODE_CACHE)
const modules = new Map()

/** The cache directory, or undefined when turned off. Nothing is created or checked yet. */
function openCodeCache(setting) {
  if (setting !== undefined && /^(off|0|false|no)$/i.test(setting.trim())) return undefined
  const uid = process.getuid?.()
  const root = setting?.trim() || join(tmpdir(), `onedev-audit-code-cache${uid === undefined ? '' : `-${uid}`}`)
  return {root, dir: join(root, `${process.version}-${process.arch}`), uid, usable: undefined, used: 0, scripts: 0, pending: []}
}

/**
 * Whether the cache's root may be trusted: a directory of ours that nobody else can write to (compiled
 * code read from it runs as this user). With `create`, the cache's directory is made first (mode 700).
 */
function trusted(cache, create) {
  if (!create && cache.usable !== undefined) return cache.usable
  try {
    if (create) mkdirSync(cache.dir, {recursive: true, mode: 0o700})
    const stat = lstatSync(cache.root)
    cache.usable = stat.isDirectory() && (cache.uid === undefined || (stat.uid === cache.uid && (stat.mode & 0o022) === 0))
  } catch {
    cache.usable = false
  }
  return cache.usable
}

/** The cached code of a script, when present and intact. */
function cachedCode(cache, key) {
  if (!trusted(cache, false)) return undefined
  try {
    const content = readFileSync(join(cache.dir, key))
    const code = content.subarray(DIGEST)
    return content.length > DIGEST && hash('sha256', code, 'buffer').equals(content.subarray(0, DIGEST)) ? code : undefined
  } catch {
    return undefined
  }
}

/** Writes the code V8 compiled for the scripts that had none cached (at exit: with what this run compiled lazily). */
function writeCodeCache(cache) {
  if (cache.pending.length === 0 || !trusted(cache, true)) return
  for (const {script, key} of cache.pending) {
    const file = join(cache.dir, key)
    const temporary = `${file}.${process.pid}.tmp`
    try {
      const code = script.createCachedData()
      writeFileSync(temporary, Buffer.concat([hash('sha256', code, 'buffer'), code]), {mode: 0o600})
      renameSync(temporary, file)
      cache.written = (cache.written ?? 0) + 1
    } catch {
      try {
        rmSync(temporary, {force: true})
      } catch {}
    }
  }
}

function compile(file, bytes) {
  const source = bytes.toString()
  if (!source.startsWith(SCRIPT_START)) throw new Error(`${file} is not a script of this bundle: run npm run build`)
  const key = codeCache && hash('sha256', bytes)
  const cachedData = codeCache && cachedCode(codeCache, key)
  const script = new vm.Script(source, {filename: file, cachedData})
  if (codeCache) {
    codeCache.scripts++
    if (cachedData && !script.cachedDataRejected) codeCache.used++
    else codeCache.pending.push({script, key})
  }
  return script.runInThisContext()
}

/** A file of the bundle that `specifier` (of a script in `dir`) names, or undefined. */
function bundled(specifier, dir) {
  const path = specifier.startsWith('./') || specifier.startsWith('../') ? resolve(dir, specifier) : specifier.startsWith('file:') ? fileURLToPath(specifier) : undefined
  return path?.startsWith(BUNDLE) ? path : undefined
}

/** Node's require for the scripts of a directory (made on first use: a scan needs it in two scripts). */
const nodeRequires = new Map()
function nodeRequire(dir) {
  let found = nodeRequires.get(dir)
  if (!found) nodeRequires.set(dir, (found = nodeModule.createRequire(join(dir, 'noop.js'))))
  return found
}

/** Runs a script of the bundle once and returns its exports. */
function load(file) {
  const known = modules.get(file)
  if (known) return known.exports
  const run = compile(file, readFileSync(file))
  const loaded = {exports: {}}
  modules.set(file, loaded)
  const dir = dirname(file)
  const require = (id) => {
    const own = bundled(id, dir)
    if (own) return load(own)
    // A package from node_modules (undici, for a live run): Node 22.1 and later cache its compiled code.
    if (!nodeModule.isBuiltin(id)) nodeModule.enableCompileCache?.()
    return nodeRequire(dir)(id)
  }
  require.resolve = (id, options) => nodeRequire(dir).resolve(id, options)
  // import(): a file of the bundle (a chunk, or oclif importing the command map) is a script; anything
  // else (a rule plugin) is an ES module for Node to load.
  const importer = (specifier) => {
    const own = bundled(String(specifier), dir)
    return own ? Promise.resolve().then(() => load(own)) : import(specifier)
  }
  run.call(loaded.exports, loaded.exports, require, loaded, file, dir, importer)
  return loaded.exports
}

if (codeCache) {
  process.once('exit', () => {
    writeCodeCache(codeCache)
    if (process.argv.includes('--debug')) {
      const {dir, used, scripts, written} = codeCache
      process.stderr.write(`debug: code cache ${dir}: ${used} of ${scripts} scripts compiled from it${written ? `, ${written} written` : ''}\n`)
    }
  })
}

// oclif finds the package from its root (bin/package.json is not the CLI's). The run's promise is this
// script's export, for a caller that runs the CLI in its own process (bench/run.mjs).
module.exports = load(join(BUNDLE, 'main.js')).main(ROOT)
