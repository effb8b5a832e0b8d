/**
 * Field rules whose failure messages are translatable tokens.
 *
 * A schema failure message here is a message key with parameters
 * (`constraint.maxLength?{"max":191}`); the envelope translates it into the
 * request's language when it writes the validation error's `fields`.
 */
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import { type MessageKey, token } from "./i18n"

const message = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => ({
  message: () => token(key, params)
})

export const String = Schema.String.annotations(message("constraint.type.string"))
/** Finite numbers only: NaN and Infinity would travel as JSON `null`. */
// The message is on the number type too, so a string where a number belongs says "must be a number".
export const Number = Schema.Number.annotations(message("constraint.type.number")).pipe(
  Schema.finite(message("constraint.type.number"))
)
export const Boolean = Schema.Boolean.annotations(message("constraint.type.boolean"))
export const Int = Number.pipe(Schema.int(message("constraint.type.integer")))

/** A string of `min` to `max` characters. */
export const text = (options: { readonly min?: number; readonly max: number }) => {
  const bounded = String.pipe(Schema.maxLength(options.max, message("constraint.maxLength", { max: options.max })))
  return options.min === undefined
    ? bounded
    : bounded.pipe(Schema.minLength(options.min, message("constraint.minLength", { min: options.min })))
}

/** An integer between `min` and `max`, inclusive. */
export const intBetween = (min: number, max: number) =>
  Int.pipe(
    Schema.greaterThanOrEqualTo(min, message("constraint.min", { min })),
    Schema.lessThanOrEqualTo(max, message("constraint.max", { max }))
  )

/** An integer query parameter (`?limit=20`) between `min` and `max`, inclusive. */
export const intParam = (min: number, max: number) =>
  Schema.NumberFromString.annotations(message("constraint.type.integer")).pipe(Schema.compose(intBetween(min, max)))

/** `limit` (1 to `maxLimit`) and `offset` of a paged list; `count` in the answer counts every match. */
export const pageParams = (maxLimit: number) => ({
  limit: Schema.optional(intParam(1, maxLimit)),
  offset: Schema.optional(intParam(0, 100000))
})

/**
 * An ISO 8601 date and time in the years `minYear` to `maxYear`: JavaScript
 * parses dates (±275,000 years) that Postgres cannot store or compare with.
 */
export const dateTimeBetween = (minYear: number, maxYear: number) => {
  const failure = message("constraint.dateTimeRange", { min: minYear, max: maxYear })
  // The range is checked on the decoded date (not as a refinement of the string transformation), so the
  // JSON Schema keeps the field's own description.
  const inRange = Schema.DateTimeUtcFromSelf.pipe(
    Schema.filter((date) => {
      const year = DateTime.getPartUtc(date, "year")
      return year >= minYear && year <= maxYear
    }, {
      ...failure,
      // Made inside the range, so generated requests (the reliability fuzz) stay valid.
      arbitrary: () => (fc) =>
        fc.date({
          min: new Date(Date.UTC(minYear, 0, 1)),
          max: new Date(Date.UTC(maxYear, 11, 31, 23, 59, 59, 999)),
          noInvalidDate: true
        }).map((date) => DateTime.unsafeFromDate(date))
    })
  )
  return Schema.compose(Schema.DateTimeUtc.annotations(message("constraint.dateTime")), inRange)
}

/** A date-time filter in a query (`?from=…&to=…`): every date filter of the API uses this one. */
export const DateTimeParam = dateTimeBetween(1970, 9999).annotations({
  description: "ISO 8601 date and time, in the years 1970 to 9999"
})

/** A number between `min` and `max`, inclusive. */
export const numberBetween = (min: number, max: number) =>
  Number.pipe(
    Schema.greaterThanOrEqualTo(min, message("constraint.min", { min })),
    Schema.lessThanOrEqualTo(max, message("constraint.max", { max }))
  )

export const nonNegative = Number.pipe(Schema.greaterThanOrEqualTo(0, message("constraint.min", { min: 0 })))

/**
 * One of fixed strings. Checked as a refinement of a string (not as a union of
 * literals) so that inside optional or nullable fields the failure still names
 * the allowed values.
 */
export const oneOf = <const Values extends readonly [string, ...Array<string>]>(...values: Values) => {
  const allowed: ReadonlyArray<string> = values
  return Schema.compose(
    String.pipe(Schema.filter((value) => allowed.includes(value), {
      ...message("constraint.oneOf", { values: values.join(", ") }),
      jsonSchema: { enum: allowed }
    })),
    Schema.Literal(...values)
  )
}

export const pattern = (regex: RegExp, key: MessageKey = "constraint.pattern") =>
  String.pipe(Schema.pattern(regex, message(key)))

export const arrayOf = <A, I, R>(
  item: Schema.Schema<A, I, R>,
  options: { readonly min?: number; readonly max: number }
) => {
  const bounded = Schema.Array(item).annotations(message("constraint.type.array")).pipe(
    Schema.maxItems(options.max, message("constraint.maxItems", { max: options.max }))
  )
  return options.min === undefined
    ? bounded
    : bounded.pipe(Schema.minItems(options.min, message("constraint.minItems", { min: options.min })))
}

/** Folder identifiers: 32 lowercase hexadecimal characters. */
export const FolderId = pattern(/^[0-9a-f]{32}$/, "constraint.folderId").pipe(Schema.brand("FolderId"))
export type FolderId = typeof FolderId.Type
