/**
 * "Did you mean": the known word a misspelt one was most likely meant to be (a command, a
 * configuration key, a flag's option).
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours each count 1. */
export function editDistance(a: string, b: string): number {
  // Three rows of the classic table: the one before the previous (for swaps), the previous, the current.
  let before: number[] = []
  let previous = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1)
      current.push(best)
    }
    before = previous
    previous = current
  }
  return previous[b.length]!
}

/**
 * The candidate closest to `word` (case ignored), or undefined when none is close enough to be a
 * slip: at most a third of the word's length away (at least 1, at most 3). On a tie, the first in
 * `candidates`' order.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const typed = word.toLowerCase()
  const allowed = Math.min(3, Math.max(1, Math.floor(typed.length / 3)))
  let best: {candidate: string; distance: number} | undefined
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase())
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = {candidate, distance}
  }
  return best?.candidate
}
