/**
 * Checking a request payload against the domain's schema before sending it.
 * The Effect client encodes payloads with these same schemas and fails on an
 * invalid one without calling the server, so the CLI checks first and reports
 * the fields as the server would: the same constraint texts, in the same language.
 */
import { Errors, I18n, Validation } from "@dastyar/domain"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

export class InvalidInput extends Data.TaggedError("InvalidInput")<{
  readonly message: string
  readonly fields: ReadonlyArray<Errors.FieldError>
}> {}

/** The server's field rules, with the constraints translated here (no envelope to do it). */
const fieldsOf = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>, locale: I18n.Locale) =>
  Validation.fieldsOf(issues).map((field): Errors.FieldError => ({
    property: field.property,
    constraints: field.constraints.map((constraint) => I18n.translate(locale, constraint))
  }))

export const checkPayload = <A, I>(schema: Schema.Schema<A, I>, payload: A, locale: I18n.Locale) =>
  Schema.encode(schema)(payload, { errors: "all" }).pipe(
    Effect.as(payload),
    Effect.catchTag("ParseError", (error) =>
      Effect.fail(
        new InvalidInput({
          message: I18n.translate(locale, "validation.failed"),
          fields: fieldsOf(ParseResult.ArrayFormatter.formatErrorSync(error), locale)
        })
      ))
  )
