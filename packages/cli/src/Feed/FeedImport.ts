/**
 * The steps `products import` and `products sync` share: read and check the
 * feed (reporting every invalid row, sending nothing if there is one), and
 * send it in batches with a progress bar and one line per batch.
 */
import type { Assistants, I18n, Products } from "@dastyar/domain"
import { type EffectClient, importAll, ProductFeed } from "@dastyar/sdk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { progressBar } from "../Progress"
import { type FeedFormat, readFeed } from "./Feed"

/** Enough to find and fix the pattern; the count says how many more there are. */
const shownProblems = 50

/** `feed.csv:12: price: must be a number` */
export const problemLine = (file: string, problem: ProductFeed.RowProblem): string =>
  `${file}:${problem.line}: ${problem.field === undefined ? "" : `${problem.field}: `}${problem.message}`

/** The feed's products, all valid, or every problem on stderr and a usage failure. */
export const loadFeed = (file: string, format: FeedFormat | undefined, locale: I18n.Locale) =>
  Effect.gen(function*() {
    const feed = yield* readFeed(file, format)
    const { problems, products } = ProductFeed.checkFeed(feed, locale)
    if (problems.length === 0) return products
    for (const problem of problems.slice(0, shownProblems)) yield* Console.error(problemLine(file, problem))
    if (problems.length > shownProblems) yield* Console.error(`… and ${problems.length - shownProblems} more`)
    const rows = new Set(problems.map((problem) => problem.line)).size
    return yield* new CommandFailed({
      message: `${rows} invalid ${rows === 1 ? "row" : "rows"} in ${file}; nothing was sent`,
      exitCode: ExitCode.usage
    })
  })

const plural = (count: number, word: string, many = `${word}s`) => `${count} ${count === 1 ? word : many}`

/** Imports in batches; each batch is all or nothing, so a failure says which batches are already stored. */
export const sendFeed = (
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  products: ReadonlyArray<Products.ProductCreate>,
  batchSize: number
) =>
  Effect.gen(function*() {
    const progress = progressBar("Importing", products.length)
    let sent = 0
    let stored = 0
    const counts = yield* importAll(client, assistantCode, products, {
      limits: { maxItems: batchSize },
      onBatch: ({ batch, batches, result, size }) =>
        Effect.gen(function*() {
          sent += size
          stored = batch
          yield* progress.note(
            `batch ${batch}/${batches}: ${
              plural(size, "product")
            }: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`
          )
          yield* progress.update(sent)
        })
    }).pipe(
      Effect.tapError(() =>
        progress.note(
          `batch ${stored + 1} failed; ${plural(stored, "batch", "batches")} before it (${
            plural(sent, "product")
          }) stored`
        )
      ),
      Effect.ensuring(progress.finish)
    )
    return counts
  })
