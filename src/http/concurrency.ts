/** Runs at most `limit` tasks at once; the others wait in order. */
export type Semaphore = { run<T>(task: () => Promise<T>): Promise<T> }

/**
 * Creates a {@link Semaphore}. `Infinity` runs everything at once.
 *
 * @example
 * import { createSemaphore } from './concurrency.js'
 * const semaphore = createSemaphore(4)
 * const answers = await Promise.all(urls.map((url) => semaphore.run(() => fetch(url))))
 */
export function createSemaphore(limit: number): Semaphore {
  let active = 0
  const waiting: (() => void)[] = []
  const release = () => {
    active--
    waiting.shift()?.()
  }
  return {
    async run(task) {
      if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
      active++
      try {
        return await task()
      } finally {
        release()
      }
    },
  }
}

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight; keeps the order.
 *
 * @example
 * import { mapWithConcurrency } from './concurrency.js'
 * const scores = await mapWithConcurrency(addresses, 4, (address) => passport.getScore({ scorerId: 1, address }))
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index] as T, index)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker))
  return results
}
