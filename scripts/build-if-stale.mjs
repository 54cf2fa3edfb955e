#!/usr/bin/env node
// Runs `npm run build` unless dist/ is newer than everything it is built from: `npm run demo` then
// starts at once on a built clone and still rebuilds after any edit. scripts/bundle.mjs writes
// dist/.built last, so a build that failed half-way is stale. A file's or a folder's modification
// time counts (a folder's changes when a file in it is added, removed or renamed).
import {spawnSync} from 'node:child_process'
import {readdir, stat} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const INPUTS = ['src', 'rules', 'scripts', 'tsconfig.json', 'package.json', 'package-lock.json']

/** The latest modification time of a file, or of a folder and everything in it; 0 when it does not exist. */
async function newest(path) {
  const info = await stat(path).catch(() => null)
  if (info === null) return 0
  if (!info.isDirectory()) return info.mtimeMs
  const times = await Promise.all((await readdir(path, {recursive: true})).map(async (entry) => (await stat(join(path, entry)).catch(() => null))?.mtimeMs ?? 0))
  return Math.max(info.mtimeMs, ...times)
}

const entry = await stat(join(root, 'dist', 'cli', 'main.js')).catch(() => null)
const built = entry === null ? undefined : (await stat(join(root, 'dist', '.built')).catch(() => null))?.mtimeMs
const changed = Math.max(...(await Promise.all(INPUTS.map((input) => newest(join(root, input))))))
if (built === undefined || changed >= built) {
  // npm_execpath: the npm that runs this script (`npm run demo`), else the one on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []]
  const {status, error} = spawnSync(npm[0], [...npm[1], 'run', 'build', '--silent'], {cwd: root, stdio: 'inherit'})
  if (error) throw error
  process.exitCode = status ?? 1
}
