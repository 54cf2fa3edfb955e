/**
 * A memo for values derived from one project at a time. The engine runs every rule on one project
 * before it moves to the next, and hands them all the same objects (ancestors list, hierarchies),
 * so a few slots compared by identity catch every repeat. Unlike a WeakMap keyed by per-project
 * objects, it does not grow with every project until the next full collection: what was derived for
 * a finished project becomes garbage at once, while it is still young and cheap to collect.
 */
export class RecentMemo<K extends object, V> {
  private readonly keys: (K | undefined)[]
  private readonly values: (V | undefined)[]
  private next = 0

  constructor(private readonly slots = 4) {
    this.keys = new Array<K | undefined>(slots).fill(undefined)
    this.values = new Array<V | undefined>(slots).fill(undefined)
  }

  /** The value remembered for `key`, or the one `compute` returns (then remembered, replacing the oldest). */
  get(key: K, compute: () => V): V {
    for (let i = 0; i < this.slots; i++) if (this.keys[i] === key) return this.values[i] as V
    const value = compute()
    this.keys[this.next] = key
    this.values[this.next] = value
    this.next = (this.next + 1) % this.slots
    return value
  }
}
