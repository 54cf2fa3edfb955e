/**
 * Canary secrets planted in the fixtures: every secret place (job secret values, webhook secrets,
 * header values, credentials in URLs, Slack/Discord path tokens, fields named like password/token)
 * holds a distinct `CANARY-<place>-7f3a` string. A test that finds one in any output has found a leak.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'vitest'

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')

/** Any piece of a canary: a partly masked canary is still a leak. */
const CANARY_PIECE = /CANARY[^"\s]{0,40}|[^"\s]{0,40}-7f3a/g

/** Builds a canary for a place (used by tests that plant their own). */
export function canary(place: string): string {
  return `CANARY-${place}-7f3a`
}

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...filesUnder(full))
    else if (name.endsWith('.json')) out.push(full)
  }
  return out
}

function canariesInFixtures(): string[] {
  const found = new Set<string>()
  for (const file of filesUnder(FIXTURES_DIR)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/CANARY-[A-Za-z0-9_-]*?-7f3a/g)) found.add(match[0])
  }
  return [...found].sort()
}

/** Every canary value planted in test/fixtures. */
export const CANARIES: string[] = canariesInFixtures()

/** Canaries (or pieces of canaries) present in a text. */
export function findCanaries(text: string): string[] {
  const leaked = CANARIES.filter((value) => text.includes(value))
  for (const match of text.matchAll(CANARY_PIECE)) {
    if (!leaked.some((value) => value.includes(match[0]) || match[0].includes(value))) leaked.push(match[0])
  }
  return leaked
}

/** Fails, naming the leaked canary (and where it sits), when the text holds any canary. */
export function expectNoCanary(text: string): void {
  const leaked = findCanaries(text)
  expect(leaked, `secret canary leaked: ${leaked.join(', ')}`).toEqual([])
}
