/**
 * Turning a failed command into one line on stderr and an exit code. Expected
 * failures (API errors, bad usage, an unreachable server) never print a stack;
 * only defects do, since those are bugs worth a trace.
 */
import { Errors } from "@dastyar/domain"
import { ValidationError } from "@effect/cli"
import { HttpClientError } from "@effect/platform"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import { CommandFailed } from "./CommandFailed"
import { errorCatalog } from "./ErrorCatalog"
import { ExitCode, ExitWith } from "./ExitCode"
import { InvalidInput } from "./Input"
import { UsageError } from "./Session"

export interface Report {
  /** Absent when the problem was already printed (by @effect/cli for usage errors). */
  readonly line: Option.Option<string>
  readonly exitCode: number
}

const say = (text: string, exitCode: number): Report => ({ line: Option.some(`error: ${text}`), exitCode })

/** `401 api_key.invalid: Invalid or revoked API key`; the code is left out for generic errors. */
const apiError = (tag: string, message: string | undefined, details: ReadonlyArray<string> = []) => {
  const info = Option.fromNullable(errorCatalog.get(tag))
  const status = Option.match(info, { onNone: () => "", onSome: ({ status }) => `${status} ` })
  const code = Option.flatMap(info, ({ code }) => code)
  const text = message ?? Option.getOrElse(code, () => tag)
  const head = Option.match(code, { onNone: () => text, onSome: (code) => code === text ? code : `${code}: ${text}` })
  return say([`${status}${head}`, ...details].join(": "), ExitCode.api)
}

/** `name: must be at least 1 character long; plan: …` */
const fieldList = (fields: ReadonlyArray<Errors.FieldError>) =>
  fields.map(({ constraints, property }) => `${property}: ${constraints.join(", ")}`).join("; ")

/** The innermost readable reason of a transport failure, e.g. `connect ECONNREFUSED 127.0.0.1:1`. */
const innermostReason = (error: unknown): Option.Option<string> => {
  const inner = Predicate.hasProperty(error, "cause") ? innermostReason(error.cause) : Option.none()
  if (Option.isSome(inner)) return inner
  if (error instanceof Error && error.message.length > 0) return Option.some(error.message)
  // Node reports a refused dual-stack `localhost` as an AggregateError with only a code.
  return Predicate.hasProperty(error, "code") && typeof error.code === "string"
    ? Option.some(error.code)
    : Option.none()
}

const originOf = (url: string) => Option.liftThrowable(() => new URL(url).origin)().pipe(Option.getOrElse(() => url))

const httpClientError = (error: HttpClientError.HttpClientError): Report => {
  const server = originOf(error.request.url)
  if (error._tag === "ResponseError") {
    return error.reason === "StatusCode"
      ? say(`${error.response.status} unexpected response from ${error.methodAndUrl}`, ExitCode.api)
      : say(`${error.response.status} unreadable response from ${server}: is it a Dastyar server?`, ExitCode.api)
  }
  switch (error.reason) {
    case "Transport": {
      const reason = Option.match(innermostReason(error.cause), { onNone: () => "", onSome: (text) => ` (${text})` })
      return say(
        `cannot reach the Dastyar server at ${server}${reason}; is it running? Set --base-url or DASTYAR_BASE_URL`,
        ExitCode.connection
      )
    }
    case "InvalidUrl":
      return say(`invalid base URL in ${error.request.url}; set --base-url or DASTYAR_BASE_URL`, ExitCode.usage)
    case "Encode":
      return say(`could not encode the request: ${error.message}`, ExitCode.internal)
  }
}

export const describe = (error: unknown): Report => {
  // @effect/cli has already printed what was wrong with the command line.
  if (ValidationError.isValidationError(error)) return { line: Option.none(), exitCode: ExitCode.usage }
  if (error instanceof UsageError) return say(error.message, ExitCode.usage)
  if (error instanceof CommandFailed) return say(error.message, error.exitCode)
  // Caught before sending; worded like the server's validation error, minus the status.
  if (error instanceof InvalidInput) return say(`${error.message}: ${fieldList(error.fields)}`, ExitCode.usage)
  if (ConfigError.isConfigError(error)) return say(`configuration: ${String(error)}`, ExitCode.usage)
  if (HttpClientError.isHttpClientError(error)) return httpClientError(error)
  if (ParseResult.isParseError(error)) {
    return say("the server's response does not match this CLI's API definition (is --base-url right?)", ExitCode.api)
  }
  if (error instanceof Errors.ValidationFailed) {
    return apiError(error._tag, error.message, error.fields.length === 0 ? [] : [fieldList(error.fields)])
  }
  // Every other failure of the client is one of the domain's tagged API errors.
  if (Predicate.hasProperty(error, "_tag") && typeof error._tag === "string") {
    const message = Predicate.hasProperty(error, "message") && typeof error.message === "string"
      ? error.message
      : undefined
    return apiError(error._tag, message)
  }
  return say(`unexpected failure: ${String(error)}`, ExitCode.internal)
}

/** Prints the one line for a failed command and fails with its exit code. */
export const report = (cause: Cause.Cause<unknown>): Effect.Effect<never, ExitWith> => {
  const { exitCode, line } = Option.match(Cause.failureOption(cause), {
    onSome: describe,
    onNone: () => ({
      line: Option.some(`error: unexpected failure\n${Cause.pretty(cause)}`),
      exitCode: ExitCode.internal
    })
  })
  return Option.match(line, { onNone: () => Effect.void, onSome: Console.error }).pipe(
    Effect.zipRight(Effect.fail(new ExitWith({ code: exitCode })))
  )
}
