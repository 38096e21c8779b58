// Calls work(0 .. count - 1), `concurrency` at a time: each lane takes the next index as it frees.
export async function inParallel(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}
