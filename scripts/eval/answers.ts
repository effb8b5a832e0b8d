/**
 * Answers from documents, with the offline answerer, on a tuning set and
 * held-aside sets reported apart (see `data/HELD-ASIDE.md`):
 *
 * - tuning: `data/answers-questions.json` over `data/answers-docs` (a PDF,
 *   a DOCX, a plain-text policy and a Persian shop FAQ), and tuning-2:
 *   `data/tuning-2-en.json` over `data/tuning-2-en-docs` (a shop's shipping
 *   and returns page, an air fryer's quick-start guide, a store FAQ) and
 *   `data/tuning-2-fa.json` over `data/tuning-2-fa-docs` (a Persian shop's
 *   shipping and returns page, a guarantee card, an FAQ), and tuning-3:
 *   `data/tuning-3-en.json` over `data/tuning-3-en-docs` and
 *   `data/tuning-3-fa.json` over `data/tuning-3-fa-docs` (ordering and
 *   delivery terms, installment terms, size and exchange guides, refund
 *   rules of courses), and tuning-4: `data/tuning-4-en.json` over
 *   `data/tuning-4-en-docs` and `data/tuning-4-fa.json` over
 *   `data/tuning-4-fa-docs` (delivery and assembly terms, membership terms,
 *   a subscription FAQ, repair terms, tour cancellation rules); tuning-3 and
 *   tuning-4 were held aside until their aggregates had been seen; and
 *   tuning-5: `data/tuning-5-en.json` over `data/tuning-5-en-docs` and
 *   `data/tuning-5-fa.json` over `data/tuning-5-fa-docs` (a bicycle
 *   workshop, a dental practice's fees, a dog groomer's FAQ, a carpet
 *   cleaner, a photo studio, a pest control company), and tuning-6:
 *   `data/tuning-6-en.json` over `data/tuning-6-en-docs` and
 *   `data/tuning-6-fa.json` over `data/tuning-6-fa-docs` (a driving
 *   school, a self-storage company, an optician, a print shop, a music
 *   school, a home-appliance repair service), and tuning-7:
 *   `data/tuning-7-en.json` over `data/tuning-7-en-docs` and
 *   `data/tuning-7-fa.json` over `data/tuning-7-fa-docs` (a laundry, a
 *   coworking space, a removals company, a tailor, a car wash, a courier),
 *   each written with its facts before the answerer first ran on it;
 * - held-aside: `data/answers-held-aside.json` over the same documents,
 *   `data/held-aside-en.json` over `data/held-en-docs` (a manual, a warranty
 *   card, terms of sale) and `data/held-aside-fa.json` over
 *   `data/held-fa-docs` (Persian typed as people type), and
 *   `data/held-aside-en-4.json` over `data/held-en-4-docs` and
 *   `data/held-aside-fa-4.json` over `data/held-fa-4-docs` (a guesthouse's
 *   booking terms, car hire terms, a trade-in programme, a pharmacy's
 *   ordering terms, internet package terms, a restaurant's reservation and
 *   delivery rules).
 *
 *   pnpm eval:answers [--floor 0.35] [--misses] [--only a.json,b.json]
 *
 * For each set: answered with the fact, declined correctly, wrong answers,
 * wrong declines and follow-ups answered, beside the naive baseline (the
 * best retrieved passage, verbatim) measured in the same run. `--misses`
 * prints the tuning sets' misses only: never change code while looking at
 * held-aside failures. Boots the service on a fresh database of
 * `DATABASE_URL` (dropped afterwards) or on embedded PGlite.
 */
import { runStandalone } from "../../packages/server/test/Chat/support/AnswerQuality"

const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at < 0 ? undefined : process.argv[at + 1]
}

const only = argument("--only")
const figures = await runStandalone({
  floor: Number(argument("--floor") ?? "0.35"),
  only: only === undefined ? [] : only.split(","),
  showMisses: process.argv.includes("--misses")
})
console.log(figures.report)
