/**
 * The `docker run` options a Docker executor adds to every step container (its *Run Options*,
 * `runOptions`), read the way OneDev and the Docker CLI read them, and which of them hand a job the
 * host.
 *
 * How OneDev passes them: a server Docker executor adds
 * `StringUtils.parseQuoteTokens(getRunOptions())` to its `docker run` command after its own
 * `--name=…`, `--network=<job network>`, `--user`, `--cpus` and `--memory`, and before its own
 * volumes, the image and the command (v16.5.6 ServerDockerExecutor.java:362–373; v8.0.0 :306–312);
 * a remote Docker executor sends the text to its agent, which does the same (theonedev/agent 3.2.5
 * AgentSocket.java:771–781). `parseQuoteTokens` (theonedev/commons commons-utils StringUtils,
 * ≥ 3.0.3, i.e. OneDev ≥ 10.9.9) splits at spaces outside double quotes, drops the quotes and takes
 * the character after a backslash as it is; before (a StreamTokenizer) tabs and line breaks split
 * too. `splitRunOptions` does both: a tab or line break also ends a token (on a current server such
 * a token makes docker fail with "unknown flag", so reading more never hides an option). Single
 * quotes are ordinary characters, as for OneDev. Nothing is expanded: no variables, no globs.
 *
 * How docker reads the tokens (docker/cli v29.7.2 cli/command/container/opts.go, run.go: spf13/pflag):
 * `--name=value` or `--name value` for an option that takes a value, `--flag` or `--flag=true|false`
 * for a boolean one, short options clustered (`-it`, `-v/a:/b`, `-e=X`); a value-taking option takes
 * the next token whatever it looks like, so `-e --privileged` sets an environment variable. An option
 * docker does not know makes it refuse to run: it is read as taking no value, so the token after it is
 * still judged (the safer reading). Options after an image name or `--` are judged too (docker would
 * take them as the command; such an executor's jobs fail anyway). Redacted text (`-e TOKEN=<redacted>`)
 * reads like any other value.
 */

/** Boolean options of `docker run` (docker/cli v29.7.2 opts.go:198–317, run.go:60–77); every other known option takes a value. */
const BOOLEAN_OPTIONS: ReadonlySet<string> = new Set([
  'detach',
  'disable-content-trust',
  'help',
  'init',
  'interactive',
  'no-healthcheck',
  'oom-kill-disable',
  'privileged',
  'publish-all',
  'quiet',
  'read-only',
  'rm',
  'sig-proxy',
  'tty',
  'use-api-socket',
])

/** Value-taking options of `docker run` (same source). */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(
  (
    'add-host annotation attach blkio-weight blkio-weight-device cap-add cap-drop cgroup-parent cgroupns cidfile cpu-count cpu-percent ' +
    'cpu-period cpu-quota cpu-rt-period cpu-rt-runtime cpu-shares cpus cpuset-cpus cpuset-mems detach-keys device device-cgroup-rule ' +
    'device-read-bps device-read-iops device-write-bps device-write-iops dns dns-opt dns-option dns-search domainname entrypoint env ' +
    'env-file expose gpus group-add health-cmd health-interval health-retries health-start-interval health-start-period health-timeout ' +
    'hostname io-maxbandwidth io-maxiops ip ip6 ipc isolation kernel-memory label label-file link link-local-ip log-driver log-opt ' +
    'mac-address memory memory-reservation memory-swap memory-swappiness mount name net net-alias network network-alias oom-score-adj ' +
    'pid pids-limit platform publish pull restart runtime security-opt shm-size stop-signal stop-timeout storage-opt sysctl tmpfs ulimit ' +
    'user userns uts volume volume-driver volumes-from workdir'
  ).split(' '),
)

/** Short options and their long names (same source); `-h` is `--hostname` for `docker run`. */
const SHORT_OPTIONS: Readonly<Record<string, string>> = {
  a: 'attach',
  c: 'cpu-shares',
  d: 'detach',
  e: 'env',
  h: 'hostname',
  i: 'interactive',
  l: 'label',
  m: 'memory',
  p: 'publish',
  P: 'publish-all',
  q: 'quiet',
  t: 'tty',
  u: 'user',
  v: 'volume',
  w: 'workdir',
}

/** One option as docker reads it: its long name (unknown ones as written) and its value (null: none given). */
export interface DockerOption {
  name: string
  value: string | null
}

/** The tokens OneDev adds to `docker run` for this text (see the module comment). */
export function splitRunOptions(text: string): string[] {
  const tokens: string[] = []
  let current = ''
  let quoted = false
  let escaping = false
  for (const char of text) {
    if (escaping) {
      current += char
      escaping = false
    } else if (char === '\\') escaping = true
    else if (char === '"') quoted = !quoted
    else if (!quoted && (char === ' ' || char === '\t' || char === '\n' || char === '\r')) {
      // OneDev keeps no empty token (`""` alone adds nothing).
      if (current.length > 0) tokens.push(current)
      current = ''
    } else current += char
  }
  if (current.length > 0) tokens.push(current)
  return tokens
}

const takesValue = (name: string): boolean => VALUE_OPTIONS.has(name)

/** The options docker reads from these tokens, in order (see the module comment). */
export function parseDockerOptions(tokens: readonly string[]): DockerOption[] {
  const options: DockerOption[] = []
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.startsWith('--')) {
      if (token === '--') continue
      const equals = token.indexOf('=')
      const name = equals < 0 ? token.slice(2) : token.slice(2, equals)
      if (equals >= 0) options.push({name, value: token.slice(equals + 1)})
      else if (takesValue(name) && i + 1 < tokens.length) options.push({name, value: tokens[++i]!})
      else options.push({name, value: null})
    } else if (token.startsWith('-') && token.length > 1) {
      // A cluster of short options: booleans until one that takes a value, which takes the rest of
      // the token (after an optional `=`) or else the next token.
      for (let j = 1; j < token.length; j++) {
        const letter = token[j]!
        const name = SHORT_OPTIONS[letter] ?? letter
        const rest = token.slice(j + 1)
        if (rest.startsWith('=')) {
          options.push({name, value: rest.slice(1)})
          break
        }
        if (!takesValue(name)) {
          options.push({name, value: null})
          continue
        }
        if (rest.length > 0) options.push({name, value: rest})
        else if (i + 1 < tokens.length) options.push({name, value: tokens[++i]!})
        else options.push({name, value: null})
        break
      }
    }
    // Anything else is an image name or a command word: not an option.
  }
  return options
}

/** What a risky option gives a job. */
export type DockerRiskKind =
  /** `--privileged`: every capability and device, no seccomp or AppArmor profile */
  | 'privileged'
  /** `--network`/`--pid`/`--ipc`/`--userns host`: the host's namespace instead of the container's own */
  | 'host-namespace'
  /** `--cap-add ALL`, `SYS_ADMIN` or `SYS_MODULE` */
  | 'capability'
  /** `--security-opt seccomp=unconfined`, `apparmor=unconfined`, `label=disable` or `systempaths=unconfined` */
  | 'unconfined'
  /** a bind mount of the Docker socket or of a directory holding it (`/`, `/run`, `/var/run`), or `--use-api-socket` */
  | 'docker-socket'

export interface DockerRisk {
  kind: DockerRiskKind
  /**
   * The option for messages, no more of its value than what makes it risky: `--network host`,
   * `--cap-add SYS_ADMIN`, `-v /var/run/docker.sock:…`, `--mount source=/run`.
   */
  option: string
}

/** Values of pflag's ParseBool that mean true (a boolean option given without a value is true). */
const TRUE_VALUES: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True'])
const isOn = (value: string | null): boolean => value === null || TRUE_VALUES.has(value)

/** Namespaces shared with the host by the value `host` (`--net` is docker's hidden alias of `--network`). */
const HOST_NAMESPACE_OPTIONS: ReadonlySet<string> = new Set(['network', 'net', 'pid', 'ipc', 'userns'])

/**
 * Capabilities that are the host's kernel in a job's hands: ALL, SYS_ADMIN (mount, namespaces, the
 * usual container escapes) and SYS_MODULE (loading a kernel module). Docker upper-cases them and
 * accepts them with or without `CAP_`.
 */
const HOST_CAPABILITIES: ReadonlySet<string> = new Set(['ALL', 'SYS_ADMIN', 'SYS_MODULE'])

/** `--security-opt` values that switch a confinement off (docker accepts `key=value` and the older `key:value`). */
const UNCONFINED: ReadonlySet<string> = new Set(['seccomp=unconfined', 'apparmor=unconfined', 'label=disable', 'systempaths=unconfined'])

/** A `--network` value names the host's network: `host`, or `name=host` in the advanced comma-separated form. */
function namesHost(name: string, value: string): boolean {
  if (value === 'host') return true
  if (name !== 'network' && name !== 'net') return false
  return value.split(',').some((field) => field.trim() === 'name=host')
}

/** An absolute host path that is, or holds, the Docker socket. */
export function exposesDockerSocket(path: string): boolean {
  if (!path.startsWith('/')) return false
  const normalized = path.replace(/\/+/g, '/').replace(/\/\.(?=\/|$)/g, '').replace(/(.)\/$/, '$1')
  if (normalized === '/' || normalized === '/run' || normalized === '/var/run') return true
  const last = normalized.slice(normalized.lastIndexOf('/') + 1)
  return last === 'docker.sock'
}

/** The host path of a `-v`/`--volume` spec (`src:dst[:mode]`); null for a named or anonymous volume. */
function volumeSource(spec: string): string | null {
  const colon = spec.indexOf(':')
  return colon < 0 ? null : spec.slice(0, colon)
}

/** The host path of a `--mount` spec (`type=bind,source=…,target=…`); null unless it is a bind mount. */
function mountSource(spec: string): string | null {
  let type = 'volume'
  let source: string | null = null
  for (const field of spec.split(',')) {
    const equals = field.indexOf('=')
    if (equals < 0) continue
    const key = field.slice(0, equals).trim().toLowerCase()
    const value = field.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1')
    if (key === 'type') type = value.toLowerCase()
    else if (key === 'source' || key === 'src') source = value
  }
  return type === 'bind' ? source : null
}

const MAX_SHOWN = 120
const shown = (text: string): string => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text)

/** The options of one executor's Run Options that hand its jobs the host, in the order given. */
export function riskyDockerOptions(runOptions: string): DockerRisk[] {
  const risks: DockerRisk[] = []
  for (const {name, value} of parseDockerOptions(splitRunOptions(runOptions))) {
    if (name === 'privileged' && isOn(value)) risks.push({kind: 'privileged', option: '--privileged'})
    else if (name === 'use-api-socket' && isOn(value)) risks.push({kind: 'docker-socket', option: '--use-api-socket'})
    else if (value === null) continue
    else if (HOST_NAMESPACE_OPTIONS.has(name) && namesHost(name, value)) risks.push({kind: 'host-namespace', option: `--${name} host`})
    else if (name === 'cap-add' && HOST_CAPABILITIES.has(value.trim().toUpperCase().replace(/^CAP_/, ''))) risks.push({kind: 'capability', option: `--cap-add ${value.trim()}`})
    else if (name === 'security-opt' && UNCONFINED.has(value.replace(/^(seccomp|apparmor|label|systempaths):/, '$1='))) risks.push({kind: 'unconfined', option: `--security-opt ${value}`})
    else if (name === 'volume' || name === 'mount') {
      const source = name === 'volume' ? volumeSource(value) : mountSource(value)
      if (source !== null && exposesDockerSocket(source)) risks.push({kind: 'docker-socket', option: name === 'volume' ? `-v ${shown(source)}:…` : `--mount source=${shown(source)}`})
    }
  }
  return risks
}
