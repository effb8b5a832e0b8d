/**
 * Answers from real documents: a PDF (the Debian New Maintainers' Guide,
 * printed to PDF by LibreOffice), a DOCX (the FAQ chapter of the Securing
 * Debian Manual, converted by LibreOffice), a plain-text policy (the Debian
 * Menu sub-policy) and a Persian shop FAQ written for this evaluation
 * (`data/answers-docs`), with the questions of `data/answers-questions.json`.
 * Each is ingested through the real service and asked through chat with the
 * offline model; beside each figure, a naive baseline in the same run:
 * fixed-size windows of the same text, and the first sentence of the best one.
 *
 *   pnpm eval:answers [--floor 0.35] [--misses] [--held-aside]
 *
 * `--held-aside` runs the 10 questions of `data/answers-held-aside.json`
 * instead: kept out of all tuning, run only at the end, reported apart.
 * Reports ingest time per document (upload to ready), retrieval hit@5 (a
 * chunk holding the fact among the top five above the relevance floor), the
 * share of answers stating the fact, and unanswerable questions declined.
 * Boots the service on a fresh database of `DATABASE_URL` (dropped
 * afterwards) or on embedded PGlite.
 */
import { runStandalone } from "../../packages/server/test/Chat/support/AnswerQuality"

const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}

const figures = await runStandalone({
  floor: Number(argument("--floor") ?? "0.35"),
  heldAside: process.argv.includes("--held-aside"),
  showMisses: process.argv.includes("--misses")
})
console.log(figures.report)
