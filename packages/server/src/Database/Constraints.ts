/** Recognising Postgres constraint violations, so they become API errors instead of 500s. */
import type { SqlError } from "@effect/sql/SqlError"

const codeOf = (cause: unknown): unknown =>
  typeof cause === "object" && cause !== null ? Reflect.get(cause, "code") : undefined

/** A unique constraint (SQLSTATE 23505) refused the write. */
export const isUniqueViolation = (error: SqlError): boolean => codeOf(error.cause) === "23505"
