/**
 * The tables and loss lists of the search relevance evaluation (SearchEval.ts):
 * tuning sets (generated catalogs, hand-judged tuning file) and held-aside sets
 * are printed apart, every system of ours beside both baselines. Held-aside
 * queries only ever show up in aggregate rows, never one by one.
 */
import { maxMeaningOnlyWithoutWords } from "../../src/Search/Fusion"
import { mean, ndcgAt } from "./RelevanceMetrics"
import { baselines, cutoff, type Figures, ratios, type Scored, systems } from "./SearchEval"
import { type EvalQuery, groups } from "./SearchEvalCatalog"
import { heldAsideFiles, tuningFiles } from "./SearchEvalJudged"

type Keep = (query: EvalQuery) => boolean

/** Mean nDCG@10, recall@10, precision of the page and results returned of one system over the `keep` queries. */
export const scoreOf = (figures: Figures, system: string, keep: Keep) => {
  const results = figures.results.filter((result) => result.system === system && keep(result.query))
  return {
    ndcg: mean(results.map((r) => r.ndcg)),
    recall: mean(results.map((r) => r.recall)),
    precision: mean(results.map((r) => r.precision)),
    returned: mean(results.map((r) => r.returned)),
    queries: results.length
  }
}

/** Noise queries score whether anything came back, not a ranking, so no aggregate row mixes them in. */
const ranked: Keep = (query) => query.group !== "noise"

const rowsOf = (): ReadonlyArray<readonly [string, Keep]> => [
  ...groups.map((group): readonly [string, Keep] => [group, (query) => query.group === group]),
  ["all but meaning, noise", (query) => ranked(query) && query.group !== "meaning"],
  ["language en", (query) => ranked(query) && query.language === "en"],
  ["language fa", (query) => ranked(query) && query.language === "fa"]
]

const table = (header: ReadonlyArray<string>, body: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => (row[column] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))
      .join("  ")
  return [line(header), ...body.map(line)].join("\n")
}

const generated: Keep = (query) => query.set === undefined
const heldAside: Keep = (query) => query.heldAside === true

/** The tables of `formatSet` for each set that ran: generated tuning, then each hand-judged file. */
export const formatTables = (figures: Figures): string => {
  const sets: ReadonlyArray<readonly [string, Keep]> = [
    ["TUNING SET: generated catalogs (judged by construction)", generated],
    ...tuningFiles.map((file): readonly [string, Keep] => [
      `TUNING SET: hand-judged catalogs (${file})`,
      (query) => query.set === file
    ]),
    ...heldAsideFiles.map((file): readonly [string, Keep] => [
      `HELD-ASIDE SET (${file}; aggregates only, never tuned on)`,
      (query) => heldAside(query) && query.set === file
    ])
  ]
  return sets.filter(([, inSet]) => scoreOf(figures, "hybrid", inSet).queries > 0)
    .map(([title, inSet]) => `${title}\n${formatSet(figures, inSet)}`).join("\n\n")
}

/**
 * nDCG@10 and recall@10 per group for every system, then the precision of the page and the results returned (which
 * weak results appended after the relevant ones lower, where nDCG does not move), and hybrid's nDCG@10 per ratio,
 * of the `inSet` queries.
 */
const formatSet = (figures: Figures, inSet: Keep): string => {
  const rows = rowsOf().map(([label, keep]) => [label, (query: EvalQuery) => inSet(query) && keep(query)] as const)
    .filter(([, keep]) => scoreOf(figures, "hybrid", keep).queries > 0)
  const main = table(
    ["group", "queries", ...systems.flatMap((system) => [`${system} nDCG`, `${system} R@10`])],
    rows.map(([label, keep]) => [
      label,
      String(scoreOf(figures, "hybrid", keep).queries),
      ...systems.flatMap((system) => {
        const s = scoreOf(figures, system, keep)
        return [s.ndcg.toFixed(3), s.recall.toFixed(3)]
      })
    ])
  )
  const page = table(
    ["group", "queries", ...systems.flatMap((system) => [`${system} P`, `${system} n`])],
    rows.map(([label, keep]) => [
      label,
      String(scoreOf(figures, "hybrid", keep).queries),
      ...systems.flatMap((system) => {
        const s = scoreOf(figures, system, keep)
        return [s.precision.toFixed(3), s.returned.toFixed(1)]
      })
    ])
  )
  const sweep = table(
    ["group", "keyword", ...ratios.map((ratio) => `ratio ${ratio}`), "meaning"],
    rows.map(([label, keep]) => [
      label,
      scoreOf(figures, "keyword", keep).ndcg.toFixed(3),
      ...ratios.map((ratio) => scoreOf(figures, `hybrid@${ratio}`, keep).ndcg.toFixed(3)),
      scoreOf(figures, "meaning", keep).ndcg.toFixed(3)
    ])
  )
  const noise = scoreOf(figures, "hybrid", (query) => inSet(query) && !ranked(query)).queries > 0
  return [
    `${scoreOf(figures, "hybrid", inSet).queries} judged queries, first ${cutoff} results`,
    main,
    ...(noise
      ? ["(noise: nothing is relevant; 1 when nothing comes back, else 0; left out of the rows below it)"]
      : []),
    "",
    `precision of the page (P: relevant among the results returned, of the first ${cutoff}; 0 when none) and results returned (n)`,
    page,
    "",
    "hybrid nDCG@10 by semanticRatio",
    sweep
  ].join("\n")
}

/**
 * Tuning queries where `system` scores below `baseline`, with both rankings. Held-aside queries are never
 * listed, so that nobody tunes while looking at them.
 */
export const lossesTo = (
  figures: Figures,
  baseline: string = baselines[0],
  system = "hybrid"
): ReadonlyArray<string> => {
  const byQuery = new Map<string, Record<string, Scored>>()
  for (const result of figures.results) {
    if (heldAside(result.query)) continue
    const key = `${result.query.set ?? "generated"}/${result.query.id}`
    byQuery.set(key, { ...byQuery.get(key), [result.system]: result })
  }
  const width = Math.max(system.length, baseline.length)
  return [...byQuery.values()].flatMap((results) => {
    const ours = results[system]
    const theirs = results[baseline]
    if (ours === undefined || theirs === undefined || ours.ndcg >= theirs.ndcg - 1e-9) return []
    return [[heading(ours.query), shown(theirs, width), shown(ours, width)].join("\n")]
  })
}

const heading = (query: EvalQuery) => `${query.set ?? "generated"} ${query.id} «${query.query}» (${query.group})`

/** A system's ranking of a query: each id, with its grade when it is relevant. */
const shown = (r: Scored, width: number) =>
  `    ${r.system.padEnd(width)} ${r.ndcg.toFixed(3)}  ${
    r.ranked.map((id) => `${id}${r.query.relevant[id] === undefined ? "" : `(${r.query.relevant[id]})`}`).join(" ")
  }`

/**
 * The hand-judged tuning queries `system` does not rank perfectly (nDCG@10 below 1), with the naive and
 * MiniSearch rankings beside it. Held-aside and generated queries are never listed.
 */
export const missesOf = (figures: Figures, system = "hybrid"): ReadonlyArray<string> => {
  const byQuery = new Map<string, Record<string, Scored>>()
  for (const result of figures.results) {
    if (heldAside(result.query) || result.query.set === undefined) continue
    const key = `${result.query.set}/${result.query.id}`
    byQuery.set(key, { ...byQuery.get(key), [result.system]: result })
  }
  const width = Math.max(system.length, ...baselines.map((baseline) => baseline.length))
  return [...byQuery.values()].flatMap((results) => {
    const ours = results[system]
    if (ours === undefined || ours.ndcg >= 1 - 1e-9) return []
    const others = baselines.flatMap((baseline) => {
      const theirs = results[baseline]
      return theirs === undefined ? [] : [theirs]
    })
    return [[heading(ours.query), ...[...others, ours].map((r) => shown(r, width))].join("\n")]
  })
}

/**
 * Per tuning set and query group, the queries hybrid answers with nothing (no query word matched, even on the
 * second look, so the noise rule left the meaning side out), and what meaning-only ranks for them: its
 * nDCG@10, and on how many a relevant product is among the few a cap of the noise rule could keep. It tells
 * whether keeping the meaning side's results there would find anything. Held-aside queries are left out.
 */
export const unansweredOf = (figures: Figures): ReadonlyArray<string> => {
  const kept = maxMeaningOnlyWithoutWords
  const meaningOf = new Map<string, Scored>()
  for (const result of figures.results) {
    if (result.system === "meaning") meaningOf.set(`${result.query.set ?? "generated"}/${result.query.id}`, result)
  }
  const rows = new Map<string, { asked: number; empty: Array<Scored> }>()
  for (const result of figures.results) {
    if (result.system !== "hybrid" || heldAside(result.query)) continue
    const key = `${result.query.set ?? "generated"} ${result.query.group}`
    const row = rows.get(key) ?? { asked: 0, empty: [] }
    row.asked++
    const meaning = meaningOf.get(`${result.query.set ?? "generated"}/${result.query.id}`)
    if (result.ranked.length === 0 && meaning !== undefined) row.empty.push(meaning)
    rows.set(key, row)
  }
  return [...rows.entries()].filter(([, row]) => row.empty.length > 0).map(([key, { asked, empty }]) => {
    const head = `${key}: ${empty.length} of ${asked}; meaning-only there`
    if (!empty.every((r) => ranked(r.query))) {
      // Nothing is relevant to a noise query: all that counts is whether anything comes back.
      return `${head} answers ${empty.filter((r) => r.ranked.length > 0).length} with products`
    }
    const first = empty.map((r) => ndcgAt(kept, r.ranked.slice(0, kept), r.query.relevant))
    const withRelevant = empty.filter((r) => r.ranked.slice(0, kept).some((id) => r.query.relevant[id] !== undefined))
    return `${head} nDCG@10 ${mean(empty.map((r) => r.ndcg)).toFixed(3)}, its first ${kept} only ${
      mean(first).toFixed(3)
    }, a relevant product among them on ${withRelevant.length}`
  })
}
