/** Building request payloads from optional flags. */
import * as Option from "effect/Option"
import * as Record from "effect/Record"

/**
 * `{ [key]: value }` when the flag was given and `{}` when not, so omitted flags
 * stay out of the request (the API treats a missing field as "leave as is").
 */
export const given = <K extends string, A>(key: K, value: Option.Option<A>): { readonly [P in K]?: A } =>
  Option.match(value, { onNone: () => ({}), onSome: (present) => Record.singleton(key, present) })
