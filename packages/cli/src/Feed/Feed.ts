/**
 * Reading a product feed file: the format comes from `--format` or the file
 * extension (`.json`, `.jsonl`/`.ndjson`, `.csv`); the SDK's `ProductFeed`
 * reads the text, as the console does.
 */
import { ProductFeed } from "@dastyar/sdk"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"

export const feedFormats = ProductFeed.feedFormats
export type FeedFormat = ProductFeed.FeedFormat

const unreadable = (file: string, reason: string) =>
  new CommandFailed({ message: `cannot read the feed ${file}: ${reason}`, exitCode: ExitCode.usage })

export const formatOf = (file: string, explicit: FeedFormat | undefined) =>
  explicit !== undefined
    ? Effect.succeed(explicit)
    : Effect.fromNullable(ProductFeed.formatOfName(file)).pipe(
      Effect.mapError(() => unreadable(file, "unknown extension; pass --format json, jsonl or csv"))
    )

export const readFeed = (file: string, explicit: FeedFormat | undefined) =>
  Effect.gen(function*() {
    const format = yield* formatOf(file, explicit)
    const text = yield* Effect.tryPromise({
      try: () => fs.readFile(file, "utf8"),
      catch: (error) => unreadable(file, error instanceof Error ? error.message : String(error))
    })
    return yield* Effect.try({
      try: () => ProductFeed.readFeed(text, format),
      catch: (error) => unreadable(file, error instanceof Error ? error.message : String(error))
    })
  })
