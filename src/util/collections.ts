/** Small helpers for the standard collections. */

/** Appends `item` to the list `map` holds under `key`, making the list on first use. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, item: V): void {
  const list = map.get(key)
  if (list) list.push(item)
  else map.set(key, [item])
}

/**
 * `items.map(f)` (for a list without holes), always as a packed list. V8 (Node 20) builds the result of
 * `.map` as a packed array while a function runs in the interpreter and as a holey one once the function
 * is optimized, so a list the rules read came in two shapes, and every optimized loop over it was thrown
 * away (deoptimized) and compiled again when the second shape first reached it: 25 times in a
 * scan of 10,000 projects. Lists the model and the facts hand to the rules are built here (the offline
 * scan's CPU 0.85x; bench/README.md, "Offline scan against JSON.parse").
 */
export function mapped<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = []
  for (let i = 0; i < items.length; i++) out.push(f(items[i]!, i))
  return out
}
