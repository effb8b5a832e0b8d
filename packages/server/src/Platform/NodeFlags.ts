/**
 * The node flags the server runs with in production: `pnpm start` (both
 * package.json files spell them out; a test holds them to this list) and the
 * benchmarks and reliability runs that start the server as production does.
 *
 * `--max-semi-space-size=32`: a young generation of up to 32 MB per
 * semi-space instead of 16. A search allocates a few MB; with the default,
 * the objects of searches in flight and of the short-lived caches are
 * promoted to the old generation, whose collections then pause the server
 * and make most of a search's tail latency. The young generation grows only
 * under allocation, so an idle server keeps its size.
 */
export const serverNodeFlags: ReadonlyArray<string> = ["--max-semi-space-size=32"]
