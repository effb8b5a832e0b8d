/**
 * Printing a command's result: with `--json` exactly the response's `data` as
 * one JSON document, otherwise a human layout of the same data. Both start from
 * the encoded (wire) form, so dates print as the server sent them.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export const printData = <A, I>(
  schema: Schema.Schema<A, I>,
  value: A,
  options: { readonly json: boolean; readonly human: (data: I) => string }
) =>
  Schema.encode(schema)(value).pipe(
    // The value was just decoded with the same schema, so encoding it back cannot fail.
    Effect.orDie,
    Effect.flatMap((data) => Console.log(options.json ? JSON.stringify(data, null, 2) : options.human(data)))
  )
