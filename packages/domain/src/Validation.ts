/**
 * Schema issues as the spec's validation `fields`: one element per invalid
 * property with its constraint tokens (translated when the envelope is written).
 * Shared by the server's error mapping and the CLI's local payload check.
 */
import type { FieldError } from "./Errors"
import { token } from "./i18n"

/** The shape of `ParseResult.ArrayFormatterIssue` (and of `HttpApiDecodeError` issues). */
export interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const generic = token("constraint.invalid")

/** A schema message is a constraint token (see `Constraint`); anything else is a generic "invalid". */
const constraintOf = (issue: Issue): string => {
  if (issue._tag === "Missing") return token("constraint.required")
  return issue.message.startsWith("constraint.") ? issue.message : generic
}

/** One element per invalid field, its constraints de-duplicated, in the order found. */
export const fieldsOf = (issues: ReadonlyArray<Issue>): Array<FieldError> => {
  const byProperty = new Map<string, Array<string>>()
  for (const issue of issues) {
    const property = issue.path.length === 0 ? "body" : issue.path.map(String).join(".")
    const constraints = byProperty.get(property) ?? []
    const constraint = constraintOf(issue)
    if (!constraints.includes(constraint)) constraints.push(constraint)
    byProperty.set(property, constraints)
  }
  // A union (e.g. an optional field) also reports its other members' generic
  // mismatch; keep it only when nothing more specific was found.
  return Array.from(byProperty, ([property, constraints]) => {
    const specific = constraints.filter((c) => c !== generic)
    return { property, constraints: specific.length > 0 ? specific : constraints }
  })
}
