/**
 * The keyword side's read as a whole: which statement runs for a query, and
 * how its rows become the ranking's candidates and idf's frequency floors.
 */
import type { SqlClient } from "@effect/sql"
import type * as SearchEngine from "../Search/SearchEngine"
import type { SearchParams } from "./HybridSearchFilters"
import { type Candidate, matchingAny, matchingInTiers, maxCandidates } from "./HybridSearchTiers"

/** Candidates of a read's tiers as one list, each product once, in catalog order. */
const merged = (tiers: ReadonlyArray<ReadonlyArray<Candidate>>): ReadonlyArray<Candidate> => {
  const seen = new Set<string>()
  const all: Array<Candidate> = []
  for (const tier of tiers) {
    for (const row of tier) {
      if (seen.has(row.id)) continue
      seen.add(row.id)
      all.push(row)
    }
  }
  return all.sort((a, b) => Number(a.position) - Number(b.position))
}

/** A row of the keyword read (`tier` only when it reads in tiers, see `matchingInTiers`). */
const isCandidate = (row: unknown): row is Candidate & { readonly tier?: number } =>
  typeof row === "object" && row !== null && typeof Reflect.get(row, "id") === "string" &&
  typeof Reflect.get(row, "fields") === "string" && typeof Reflect.get(row, "position") === "string"

/**
 * Per query word, the least number of products holding it: the count of a
 * word left out of the rows (`dropped`, `frequency`), or the sampled counts
 * of every word (`frequencies`).
 */
const frequencyFloors = (rows: ReadonlyArray<unknown>, words: number): ReadonlyArray<number> => {
  const floors = new Array<number>(words).fill(0)
  let dropped = false
  let counted = false
  for (const row of rows) {
    if (dropped && counted) break
    if (typeof row !== "object" || row === null) continue
    const word = Reflect.get(row, "dropped")
    const frequency = Reflect.get(row, "frequency")
    // Every row of the any-word read names the same word (or none); rows of the other tiers name none.
    if (!dropped && typeof word === "number" && typeof frequency === "number" && word < words) {
      floors[word] = Math.max(floors[word] ?? 0, frequency)
      dropped = true
    }
    // Tier 1's first row carries the counts (see `matchingInTiers`).
    const frequencies: unknown = Reflect.get(row, "frequencies")
    if (!counted && Array.isArray(frequencies)) {
      frequencies.forEach((count: unknown, w) => {
        if (typeof count === "number" && w < words) floors[w] = Math.max(floors[w] ?? 0, count)
      })
      counted = true
    }
  }
  return floors
}

/**
 * The keyword side's read and how its rows become candidates. When the
 * fusion keeps the strong keyword rules (ratio below one half), the
 * products matching every counted query word rank above all others (more
 * words, then their idf weight, come first), and their order among
 * themselves does not depend on the others; so when they alone fill the
 * page, they are all that is fetched and ranked; a page they cannot fill
 * reads those matching all counted words but one (three words or more),
 * then, if the page is still not full, those matching any word (keeping
 * the first ones, which a common word's sample may have left out), and
 * leaves out those matching the commonest word alone when the others fill
 * it (see `matchingInTiers`).
 */
export const keywordRead = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  params: SearchParams,
  expansion: SearchEngine.Expansion,
  words: ReadonlyArray<SearchEngine.QueryWord>,
  ratio: number,
  needed: number,
  products: number
) => {
  const groups = expansion.map((terms) => [...terms.keys()])
  const required = groups.filter((_, i) => words[i]?.counts === true)
  const perGroup = Math.max(needed, Math.ceil(maxCandidates / groups.length))
  // Products matching only an uncounted word rank below those matching the commonest counted one.
  const leaveOutCommonest = ratio < 0.5 && required.length === groups.length
  const read = (rows: ReadonlyArray<unknown>) => {
    const candidates = rows.filter(isCandidate)
    return {
      candidates: candidates.some((row) => row.tier !== undefined)
        ? merged([0, 1, 2].map((tier) => candidates.filter((row) => row.tier === tier)))
        : candidates,
      frequencyFloors: frequencyFloors(rows, words.length)
    }
  }
  return {
    statement: required.length >= 2 && ratio < 0.5
      ? matchingInTiers(
        sql,
        params,
        assistantId,
        required,
        groups,
        needed,
        perGroup,
        leaveOutCommonest,
        words,
        products
      )
      : matchingAny(sql, params, assistantId, groups, perGroup, leaveOutCommonest ? { needed } : undefined),
    read
  }
}
