import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

/** The text of every .ts file (not .d.ts) under the folders, by path relative to the repository, `/`-separated. */
export function sourceFiles(dirs: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>()
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, {recursive: true, withFileTypes: true})) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue
      const file = join(entry.parentPath, entry.name).split('\\').join('/')
      sources.set(file, readFileSync(file, 'utf8'))
    }
  }
  return sources
}
