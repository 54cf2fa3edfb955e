#!/usr/bin/env node
// What the test suite needs besides node_modules, installed when it is missing, so that `npm test` passes
// on a fresh machine (npm's `pretest` runs this first; .ci/run too):
// - Debian's Chromium: the HTML report tests open the reports in it (test/helpers/browser.ts), and
//   playwright-core never downloads a browser. ONEDEV_AUDIT_CHROMIUM names another binary.
// - a JDK's javac: the Checkstyle and JUnit report tests read the reports with the JDK's XML parser, as
//   OneDev's steps do (test/helpers/OneDevReports.java).
// Each is installed from Debian's packages with apt-get when this runs as root; otherwise it says, in one
// line, the command that installs it, and exits 1 before any test runs. ONEDEV_AUDIT_NO_INSTALL=1 only
// checks.
import {spawnSync} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import {delimiter, join} from 'node:path'

const onPath = (name) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      return false
    }
  })

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

const NEEDS = [
  {what: 'Chromium (the HTML report tests)', present: () => executable(process.env.ONEDEV_AUDIT_CHROMIUM ?? '/usr/bin/chromium'), packages: ['chromium']},
  {what: 'a JDK (the Checkstyle and JUnit report tests)', present: () => onPath('javac'), packages: ['openjdk-17-jdk-headless']},
]

const missing = NEEDS.filter((need) => !need.present())
if (missing.length === 0) process.exit(0)

const packages = missing.flatMap((need) => need.packages)
const command = `apt-get update && apt-get install -y ${packages.join(' ')}`
const root = typeof process.getuid === 'function' && process.getuid() === 0
if (!root || process.env.ONEDEV_AUDIT_NO_INSTALL === '1' || !onPath('apt-get')) {
  console.error(`The tests need ${missing.map((need) => need.what).join(' and ')}: install ${packages.length === 1 ? 'it' : 'them'} as root with \`${command}\`.`)
  process.exit(1)
}

console.error(`Installing what the tests need, ${missing.map((need) => need.what).join(' and ')}: ${command}`)
const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'}
for (let attempt = 1; attempt <= 3; attempt++) {
  const update = spawnSync('apt-get', ['update', '-qq'], {stdio: ['ignore', 'ignore', 'inherit'], env})
  const install = update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', ...packages], {stdio: ['ignore', 'ignore', 'inherit'], env}) : update
  if (install.status === 0 && missing.every((need) => need.present())) process.exit(0)
  console.error(`apt-get install ${packages.join(' ')} failed (attempt ${attempt} of 3)`)
  if (attempt < 3) spawnSync('sleep', ['5'])
}
console.error(`Could not install ${packages.join(' ')}: run \`${command}\` as root, then npm test again.`)
process.exit(1)
