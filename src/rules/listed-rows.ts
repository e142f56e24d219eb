/** A paged listing's rows counted against the total it reported. */

/**
 * How many rows a paged listing showed, to hold against the count it reported: each key once, and
 * each repeat of a key on its own page again (the listing counted that row twice, and no shift
 * between two page reads explains it). A key listed again on another page counts once: pages that
 * shift while read list a row again and may drop another. A row without a key counts each time.
 */
export function listedRowCount<R>(
  pages: readonly (readonly R[])[],
  keyOf: (row: R) => string | undefined
): number {
  const seen = new Set<string>();
  let count = 0;
  for (const page of pages) {
    const onPage = new Set<string>();
    for (const row of page) {
      const key = keyOf(row);
      if (key === undefined || onPage.has(key) || !seen.has(key)) count++;
      if (key === undefined) continue;
      onPage.add(key);
      seen.add(key);
    }
  }
  return count;
}
