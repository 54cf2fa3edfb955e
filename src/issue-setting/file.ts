/** Reading an issue-setting file from disk into a parsed, normalized setting. */
import type {IssueSetting} from '../model/issue-setting.js'
import {IssueSettingError} from './apply.js'
import {readRegularFile} from '../util/fs.js'
import {sourceOf} from '../util/json-source.js'
import {lineAndColumn} from '../util/json.js'

/** Larger than any real workflow by far. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024

export interface IssueSettingFile {
  /** The path as the user gave it (used in findings and messages). */
  file: string
  text: string
  setting: IssueSetting
}

/** Reads and validates the file; an unreadable, oversized or invalid file is an IssueSettingError (exit 2). */
export async function readIssueSettingFile(file: string): Promise<IssueSettingFile> {
  let text: string
  try {
    const tooLarge = (size: number) => {
      if (size > MAX_FILE_BYTES) throw new IssueSettingError({kind: 'io', message: `${file}: ${size} bytes is larger than the limit of ${MAX_FILE_BYTES} bytes`})
    }
    text = (await readRegularFile(file, {check: (found) => tooLarge(found.size)})).toString('utf8')
  } catch (error) {
    if (error instanceof IssueSettingError) throw error
    throw new IssueSettingError({kind: 'io', message: `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'read failed'})`})
  }
  // Loaded here: it loads zod, which the other commands of the bundle do not need.
  const {parseIssueSetting} = await import('../model/issue-setting-file.js')
  const parsed = parseIssueSetting(text, file)
  if ('error' in parsed) throw new IssueSettingError(parsed.error)
  // The file is posted as written (applyIssueSetting): one that names a member twice means one thing
  // to this lint (JSON.parse keeps the last) and maybe another to the server.
  const {duplicate} = sourceOf(text)
  if (duplicate !== null) {
    const {line, column} = lineAndColumn(text, duplicate)
    throw new IssueSettingError({kind: 'config', message: `${file}:${line}:${column}: a member is named twice in one object: readers differ on which one counts; keep one`})
  }
  return {file, text, setting: parsed.setting}
}
