/** Limits the domain declares on groups or endpoints and the server enforces in one place. */
import * as Context from "effect/Context"

/** Request bodies larger than this many bytes are refused before parsing (413 in the envelope). */
export class MaxBodyBytes extends Context.Tag("@dastyar/domain/MaxBodyBytes")<MaxBodyBytes, number>() {}
