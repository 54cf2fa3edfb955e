/** Small helpers for the standard collections. */

/** Appends `item` to the list `map` holds under `key`, making the list on first use. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, item: V): void {
  const list = map.get(key)
  if (list) list.push(item)
  else map.set(key, [item])
}
