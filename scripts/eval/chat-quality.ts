/**
 * Answer quality of chat with the built-in offline model, over a small shop
 * knowledge base in English and Persian (`data/chat-kb`, 10 documents) and
 * 40 questions, each with the passage that answers it and the fact the
 * answer must contain (`data/chat-questions.json`), plus 8 questions the
 * documents cannot answer and 10 held-out questions written after the
 * offline model was tuned on the 40 (reported apart, as the honest figure).
 *
 *   pnpm tsx scripts/eval/chat-quality.ts [--floor 0.35] [--misses]
 *
 * Reports retrieval hit@1/3/5 (a chunk containing the passage among the top k
 * above the relevance floor, and before it), how often the offline answer
 * contains the expected fact and cites the right document, how often the
 * unanswerable questions get "I don't know" with no sources, and p50/p99 of a
 * whole chat turn over HTTP. Boots the real service on a fresh database of
 * `DATABASE_URL` (dropped afterwards) or on embedded PGlite.
 */
import { runStandalone } from "../../packages/server/test/Chat/support/ChatQuality"

const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}

const figures = await runStandalone({
  floor: Number(argument("--floor") ?? "0.35"),
  showMisses: process.argv.includes("--misses")
})
console.log(figures.report)
