/**
 * The one notice of a run whose judgements the server's version did not decide (src/onedev/versions.ts):
 * why the version is unknown (or disagrees with the payloads), and which judgements were made by
 * the reading that exposes more, for what. Nothing judged that way passes without it being said.
 */
import {VERSION_ENDPOINT, VERSION_KEY} from '../model/server-version.js'
import type {AuditModel} from '../model/types.js'
import {type AssumedJudgement, assumedJudgements, releasesOf} from '../onedev/versions.js'
import type {Notice} from '../types/report-types.js'
import {fewOf} from './availability.js'

/** Subjects a judgement names before `and N more`. */
const NAMED_SUBJECTS = 5

/** Why the version is unknown, from what the collection recorded. */
function unknownBecause(model: AuditModel): string {
  const version = model.server?.version
  if (typeof version === 'string') return `it answered ${version}, which is not a release the audit can compare`
  const offered = model.notEvaluated?.find((entry) => entry.endpoint === VERSION_ENDPOINT)
  if (offered) return `the server does not offer GET ${VERSION_ENDPOINT} (${offered.status}), which OneDev has from 10.2.0 on`
  const failed = model.errors.find((error) => error.path?.endsWith(VERSION_ENDPOINT))
  if (failed) return `reading GET ${VERSION_ENDPOINT} failed${failed.status === undefined ? '' : ` (${failed.status})`}; the errors say more`
  if (model.serverData && Object.prototype.hasOwnProperty.call(model.serverData, VERSION_KEY)) return `its answer to GET ${VERSION_ENDPOINT} is not a version`
  return version === null ? `GET ${VERSION_ENDPOINT} could not be read` : 'it was not read (a snapshot written before the audit read it)'
}

/**
 * `which jobs …: judged as OneDev 11.11.1 to 15.0.0 read it (11.11.1 to 15.0.0: it takes every job; 15.0.1 and later:
 * it takes no job), for server shell executor "shell"`.
 */
function judged(assumed: AssumedJudgement): string {
  const {judgement, subjects} = assumed
  const reading = judgement.readings.find((r) => r.reading === judgement.whenUnknown)!
  const readings = judgement.readings.map((r) => `${releasesOf(judgement, r)}: it ${r.means}`)
  return `${judgement.decides}: judged as OneDev ${releasesOf(judgement, reading)} read it (${readings.join('; ')}), for ${fewOf(subjects, NAMED_SUBJECTS)}`
}

/** The notice, or none when every judgement that concerns this model was decided by its version. */
export function versionNotices(model: AuditModel): Notice[] {
  const assumed = assumedJudgements(model)
  if (assumed.length === 0) return []
  const unknown = assumed.filter((a) => a.because === 'unknown')
  const disagree = assumed.filter((a) => a.because === 'disagrees')
  const parts: string[] = []
  if (unknown.length > 0) parts.push(`The server's OneDev version is unknown: ${unknownBecause(model)}.`)
  if (disagree.length > 0) parts.push(`The server says it is OneDev ${model.server?.version}, but its answers have the shape of a later release.`)
  const count = assumed.length
  const made = `${count} judgement${count === 1 ? '' : 's'} that depend${count === 1 ? 's' : ''} on the version ${count === 1 ? 'was' : 'were'} made by the reading that exposes more`
  return [{kind: 'warning', message: `${parts.join(' ')} ${made}: ${assumed.map(judged).join('; ')}`}]
}
