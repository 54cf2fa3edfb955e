/** Reaching a server from the command line: the secret, the client, the project selection. */
import type {ApiClient, PrefixFound} from '../api/types.js'
import {escapeControl} from '../util/escape.js'
import {UsageError} from './errors.js'

export interface ServerFlags {
  url?: string
  /** Absent (no flag, no ONEDEV_API_PREFIX): the client probes /api, then /~api. */
  'api-prefix'?: string
  user: string
  'token-stdin': boolean
  timeout: number
  retries: number
  deadline?: number
  insecure: boolean
  /** Bounds of listings (ClientOptions.maxListingItems, maxListingBytes in MiB); absent: the client's defaults. */
  'max-listing-items'?: number
  'max-listing-mb'?: number
  /** Print withheld server error text on stderr (src/model/server-text.ts). */
  'debug-unsafe-server-text'?: boolean
  /** Requests in flight at most; the pool gets as many connections. */
  concurrency?: number
}

/** Standard input is read once per process: a command that connects twice (fix: collect, then apply) gets the same secret. */
let stdin: Promise<string> | undefined

function readStdin(): Promise<string> {
  return (stdin ??= readAllStdin())
}

async function readAllStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--token-stdin reads the secret from standard input, but standard input is a terminal: pipe it, e.g. `printenv TOKEN | onedev-audit ... --token-stdin`')
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The password or access token: from standard input with --token-stdin, else from ONEDEV_TOKEN. */
export async function readSecret(tokenStdin: boolean, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const secret = tokenStdin ? (await readStdin()).replace(/\r?\n$/, '') : (env.ONEDEV_TOKEN ?? '')
  if (secret === '') {
    throw new UsageError(
      tokenStdin
        ? 'standard input was empty: --token-stdin expects the password or access token'
        : 'no credentials: set ONEDEV_TOKEN to a password or access token (or pipe it with --token-stdin); the audit needs an administrator',
    )
  }
  if (/[\r\n]/.test(secret)) throw new UsageError('the secret contains a line break: give exactly one password or access token')
  return secret
}

export function parseBaseUrl(url: string | undefined): string {
  if (!url) throw new UsageError('no server: give --url (or ONEDEV_URL), or evaluate a snapshot with --snapshot')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`--url: not a URL: ${JSON.stringify(url.slice(0, 200))}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url: expected an http:// or https:// URL, got ${parsed.protocol}`)
  if (parsed.username || parsed.password) throw new UsageError('--url: must not contain credentials; use ONEDEV_USER and ONEDEV_TOKEN')
  if (parsed.search || parsed.hash) throw new UsageError('--url: must not contain a query or fragment')
  return parsed.href.replace(/\/+$/, '')
}

/** The one line saying where the prefix probe led, and how to skip it. */
export function prefixNotice(found: PrefixFound): string {
  return `onedev-audit: notice: ${found.tried} answered ${found.answered}; using ${found.using} (current OneDev servers). Skip this probe with --api-prefix ${found.using}`
}

export async function connect(
  flags: ServerFlags,
  debug: (line: string) => void,
  warn: (line: string) => void,
  signal?: AbortSignal,
): Promise<{client: ApiClient; url: string}> {
  const url = parseBaseUrl(flags.url)
  const secret = await readSecret(flags['token-stdin'])
  if (flags.insecure) warn('onedev-audit: warning: --insecure: TLS certificates are not verified; anyone on the network path can read the credentials')
  if (url.startsWith('http://') && !/^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/|$)/.test(url)) {
    warn('onedev-audit: warning: the server URL is http://: the credentials travel in clear text')
  }
  // Loaded here, not at the top: undici is for live runs only (a snapshot scan or --help never loads it).
  const {createClient} = await import('../api/client.js')
  const client = createClient({
    baseUrl: url,
    ...(flags['api-prefix'] === undefined ? {onPrefixFound: (found: PrefixFound) => warn(prefixNotice(found))} : {apiPrefix: flags['api-prefix']}),
    user: flags.user,
    secret,
    timeoutMs: flags.timeout * 1000,
    retries: flags.retries,
    ...(flags.deadline ? {deadlineMs: flags.deadline * 1000} : {}),
    insecure: flags.insecure,
    ...(flags['max-listing-items'] ? {maxListingItems: flags['max-listing-items']} : {}),
    ...(flags['max-listing-mb'] ? {maxListingBytes: flags['max-listing-mb'] * 1024 * 1024} : {}),
    ...(flags['debug-unsafe-server-text'] ? {unsafeServerText: (line: string) => warn(`onedev-audit: unsafe server text: ${escapeControl(line)}`)} : {}),
    ...(flags.concurrency ? {connections: flags.concurrency} : {}),
    ...(signal ? {signal} : {}),
    debug,
  })
  return {client, url}
}
