/** Flags shared by several commands, declared once so `--help` reads the same everywhere. */
import * as Flags from '@oclif/core/flags'

import {DEFAULT_MAX_LISTING_BYTES, DEFAULT_MAX_LISTING_ITEMS} from '../api/types.js'
import {CONTROL_STATUSES, FRAMEWORK_KEYS} from '../engine/compliance.js'
import {DIFF_FORMATS, REPORT_FORMATS, SCAN_FORMATS} from '../report/input.js'

export const FAIL_ON = ['critical', 'high', 'medium', 'low', 'none'] as const
export type FailOn = (typeof FAIL_ON)[number]

export const commonFlags = {
  config: Flags.string({
    char: 'c',
    description: 'Configuration file (default: onedev-audit.config.json in the working directory, if present).',
    helpValue: 'FILE',
  }),
  debug: Flags.boolean({description: 'Log each request (method, path, status, time) and show stack traces, on stderr. Never logs headers or bodies.'}),
}

export const serverFlags = {
  url: Flags.string({description: 'Base URL of the OneDev server, e.g. https://onedev.example.com.', env: 'ONEDEV_URL', helpValue: 'URL'}),
  // No default: an absent prefix is probed (src/api/client-prefix.ts), a given one never is.
  'api-prefix': Flags.string({
    description:
      'Path of the REST interface under the base URL. Default: /api as the contract says, or /~api (where current OneDev servers answer) when /api answers an HTML page; giving it skips that probe.',
    env: 'ONEDEV_API_PREFIX',
    helpValue: 'PATH',
  }),
  user: Flags.string({description: 'Login name for HTTP Basic (may be empty with an access token).', env: 'ONEDEV_USER', default: '', helpValue: 'NAME'}),
  'token-stdin': Flags.boolean({description: 'Read the password or access token from standard input instead of the ONEDEV_TOKEN environment variable.'}),
  timeout: Flags.integer({description: 'Per-request timeout in seconds.', default: 30, min: 1, helpValue: 'SECONDS'}),
  retries: Flags.integer({description: 'Retries on connection errors, 429, 502, 503 and 504, with backoff (Retry-After honoured).', default: 3, min: 0, max: 10}),
  deadline: Flags.integer({description: 'Overall deadline for all requests, in seconds (default: none).', min: 1, helpValue: 'SECONDS'}),
  'max-listing-items': Flags.integer({
    description: 'Most items one listing (projects, roles, users, groups, ...) may hold; a listing that passes it stops with an error and the report holds what was collected (a server paging without end).',
    default: DEFAULT_MAX_LISTING_ITEMS,
    min: 1,
    helpValue: 'COUNT',
  }),
  'max-listing-mb': Flags.integer({
    description: 'Most megabytes (MiB) of listing pages read in one run, all listings together: what is listed is kept in memory. The listing that passes it stops with an error, as --max-listing-items.',
    default: DEFAULT_MAX_LISTING_BYTES / (1024 * 1024),
    min: 1,
    helpValue: 'MIB',
  }),
  insecure: Flags.boolean({description: 'Do not verify the server\'s TLS certificate (prints a warning). Prefer NODE_EXTRA_CA_CERTS for a private CA.'}),
  'debug-unsafe-server-text': Flags.boolean({
    description:
      "Print on stderr the whole text of each server error answer that messages withhold (it may quote a secret, or could not be judged). It may show a secret of a posted setting: for a person at a terminal, never a CI log. Reports never hold it.",
  }),
  // Present only to refuse them without echoing the value: the secret is never a flag value.
  token: Flags.string({hidden: true}),
  password: Flags.string({hidden: true}),
}

const FORMATS_TEXT = 'stylish (a table for people), json, sarif (code scanning), markdown (CI summaries), html (one self-contained page to open in a browser, print or attach to a CI run)'

/** --format with these formats. */
function formatFlag<F extends string>(formats: readonly F[], description: string) {
  return Flags.option({char: 'f', options: [...formats], default: 'stylish' as F, description})()
}

/** --format of scan: besides every command's formats, OneDev's code problems and test results (docs/inside-onedev.md). */
export const scanFormatFlag = formatFlag(
  SCAN_FORMATS,
  `Report format: ${FORMATS_TEXT}, checkstyle (the findings as code problems on the lines of a snapshot folder's files, for OneDev's Checkstyle Report step: needs --snapshot DIR), junit (each compliance control and each rule as a test case, for OneDev's JUnit Report step) or oscal (NIST OSCAL 1.1.3 Assessment Results: each control's status with its evidence, for compliance tools).`,
)

/** --format of diff: besides every command's formats, each weakening as a failed test case for OneDev's JUnit Report step. */
export const diffFormatFlag = formatFlag(DIFF_FORMATS, `Report format: ${FORMATS_TEXT} or junit (each weakening as a failed test case, for OneDev's JUnit Report step).`)

export const reportFlags = {
  format: formatFlag(REPORT_FORMATS, `Report format: ${FORMATS_TEXT.replace(/, html/, ' or html')}.`),
  output: Flags.string({char: 'o', description: 'Write the report to this file instead of standard output.', helpValue: 'FILE'}),
  category: Flags.string({description: 'SARIF runAutomationDetails.id (GitHub\'s upload category). Default: onedev-audit/<server host>/.', helpValue: 'ID'}),
}

/** Which branches and tags are judged besides the default branch (they replace the configuration's lists). */
export const refFlags = {
  branch: Flags.string({
    char: 'b',
    description:
      "A branch pattern judged besides each project's default branch, e.g. 'release/**' (repeatable; replaces the configuration's branches). Only branches that exist are judged.",
    multiple: true,
    helpValue: 'PATTERN',
  }),
  tag: Flags.string({
    description: "A tag pattern judged, e.g. 'v*' (repeatable; replaces the configuration's tags). Default: every existing tag.",
    multiple: true,
    helpValue: 'PATTERN',
  }),
}

export function failOnFlag(defaultValue: FailOn) {
  return Flags.option({
    options: [...FAIL_ON],
    default: defaultValue,
    description: `Exit 1 when a finding is at or above this severity (none: never). Exit 2 means the audit could not run or is incomplete.`,
  })()
}

/** Which compliance frameworks a report shows (rules/compliance/), and whether a failing control fails the run. */
export const complianceFlags = {
  framework: Flags.option({
    options: [...FRAMEWORK_KEYS],
    multiple: true,
    description:
      'Compliance framework whose controls the report shows: cis (CIS Software Supply Chain Security Guide v1.0) or osps (OpenSSF OSPS Baseline 2026.02.19). Repeatable; default: both.',
  })(),
  'fail-on-control': Flags.boolean({
    description: `Exit 1 when a control of a shown framework has the status fail (${CONTROL_STATUSES.find((s) => s.status === 'fail')!.meaning}), whatever the severities of the findings; ${CONTROL_STATUSES.filter((s) => s.status !== 'fail' && s.status !== 'pass').map((s) => s.label).join(', ')} and pass never do.`,
  }),
}
