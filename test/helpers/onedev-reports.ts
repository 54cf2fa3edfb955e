/**
 * Reads our Checkstyle and JUnit reports as OneDev's report steps do, with the JDK's XML parser
 * (test/helpers/OneDevReports.java, compiled once per test file): what OneDev would record from them.
 * Java 17 is on the development and CI machines (the node machine kind); without it these tests fail
 * and say how to install it.
 */
import {execFile} from 'node:child_process'
import {join} from 'node:path'
import {promisify} from 'node:util'

import {ROOT} from './cli.js'
import {tempDir} from './temp-dir.js'

const run = promisify(execFile)
const SOURCE = join(ROOT, 'test', 'helpers', 'OneDevReports.java')

export interface OneDevProblem {
  /** The file of the build's commit (relative to the checkout) the problem is shown on. */
  file: string
  severity: 'HIGH' | 'MEDIUM' | 'LOW'
  /** `source: message`, as OneDev shows it. */
  message: string
  line: number
  column: number | null
}

export interface OneDevCase {
  name: string
  status: 'PASSED' | 'NOT_PASSED' | 'NOT_RUN'
  /** Whether the case holds `<error>` rather than `<failure>`. */
  error: boolean
  /** The failure's or error's text (what OneDev shows), or the skipped element's message. */
  text: string | null
}

export interface OneDevSuite {
  name: string
  tests: number
  failures: number
  errors: number
  skipped: number
  /** What OneDev derives from the attributes alone. */
  status: 'PASSED' | 'NOT_PASSED' | 'NOT_RUN'
  cases: OneDevCase[]
}

let compiled: Promise<string> | undefined

/** The class folder, compiled on first use. */
function classes(): Promise<string> {
  compiled ??= (async () => {
    const dir = await tempDir('oda-java')
    try {
      await run('javac', ['-d', dir, SOURCE])
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      throw new Error(code === 'ENOENT' ? 'javac not found: these tests read reports with the JDK as OneDev does; install it (apt-get install openjdk-17-jdk-headless)' : String(error))
    }
    return dir
  })()
  return compiled
}

async function read(args: string[]): Promise<unknown> {
  const {stdout} = await run('java', ['-cp', await classes(), 'OneDevReports', ...args], {maxBuffer: 512 * 1024 * 1024})
  return JSON.parse(stdout)
}

/** The problems OneDev records from a Checkstyle report, and the file names it cannot resolve from `workDir`. */
export async function readCheckstyleAsOneDev(report: string, workDir: string): Promise<{problems: OneDevProblem[]; unresolved: string[]}> {
  return (await read(['checkstyle', report, workDir])) as {problems: OneDevProblem[]; unresolved: string[]}
}

/** The suites and cases OneDev records from a JUnit report. */
export async function readJunitAsOneDev(report: string): Promise<{root: string; suites: OneDevSuite[]}> {
  return (await read(['junit', report])) as {root: string; suites: OneDevSuite[]}
}
