/**
 * The node flags the server runs with in production: `pnpm start` (both
 * package.json files spell them out; a test holds them to this list) and the
 * benchmarks and reliability runs that start the server as production does.
 *
 * `--max-semi-space-size=32`: a young generation of up to 32 MB per
 * semi-space instead of 16. A search allocates a few MB; with the default,
 * the objects of searches in flight and of the short-lived caches were
 * promoted to the old generation at about 7 MB/s, and its collections then
 * stopped the server for 10–45 ms (bench:catalog, 10k products among 200k:
 * p99 33 ms without, 22 ms with it). The young generation grows only under
 * allocation, so an idle server keeps its size.
 */
export const serverNodeFlags: ReadonlyArray<string> = ["--max-semi-space-size=32"]
