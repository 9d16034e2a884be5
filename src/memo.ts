/**
 * `compute` remembered per key, for a pure answer asked again and again with few distinct keys (a header value, a
 * request URL). At most `limit` are kept; when full it starts over, so a caller cycling keys cannot grow it.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = compute(key);
    if (kept.size >= limit) kept.clear();
    kept.set(key, value);
    return value;
  };
}
