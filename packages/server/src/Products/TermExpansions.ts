/**
 * Product search's reuse of query words' expansions against the term
 * dictionary (Search/ExpansionCache.ts): one per instance, shared by the
 * search and the indexer, which forgets it once it has stored new terms, so
 * a write on this instance is reached by typos and prefixes as soon as it is
 * indexed (another instance's within the cache's TTL).
 */
import * as Effect from "effect/Effect"
import * as SearchEngine from "../Search/SearchEngine"

export class TermExpansions extends Effect.Service<TermExpansions>()("TermExpansions", {
  effect: SearchEngine.makeExpansionCache
}) {}
