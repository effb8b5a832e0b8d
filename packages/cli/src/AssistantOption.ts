/**
 * `--assistant <id>` for the commands that work on one assistant's data
 * (products, documents), falling back to `DASTYAR_ASSISTANT`.
 */
import { Assistants } from "@dastyar/domain"
import { Options } from "@effect/cli"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "./Session"

export const assistantOption = Options.text("assistant").pipe(
  Options.withAlias("a"),
  Options.withDescription("The assistant's id (env DASTYAR_ASSISTANT); see `dastyar assistants list`"),
  Options.optional
)

/** The flag, else the environment; a missing or empty value is a usage error before any request. */
export const assistantCode = (flag: Option.Option<string>) =>
  Effect.gen(function*() {
    const fromEnv = yield* Config.option(Config.string("DASTYAR_ASSISTANT"))
    const given = Option.filter(Option.orElse(flag, () => fromEnv), (value) => value.length > 0)
    if (Option.isNone(given)) {
      return yield* new UsageError({ message: "no assistant: pass --assistant or set DASTYAR_ASSISTANT" })
    }
    return Assistants.AssistantId.make(given.value)
  })
