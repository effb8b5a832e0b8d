/**
 * The HTTP status and `response.code` of every error the API declares, by the
 * error's `_tag`. The client decodes failures into tagged values that keep only
 * the message, so the CLI reads status and code back from the one API
 * definition instead of keeping a second list that could drift.
 */
import { DastyarApi } from "@dastyar/domain"
import { HttpApi } from "@effect/platform"
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"

export interface ErrorInfo {
  readonly status: number
  /** Absent for the generic errors (validation, rate limit, internal error). */
  readonly code: Option.Option<string>
}

const members = (ast: AST.AST): ReadonlyArray<AST.AST> => AST.isUnion(ast) ? ast.types.flatMap(members) : [ast]

/** The string literal at a property path of a struct schema, e.g. `response.code`. */
const literalAt = (ast: AST.AST, path: ReadonlyArray<string>): Option.Option<string> => {
  const [head, ...rest] = path
  if (head === undefined) {
    return AST.isLiteral(ast) && typeof ast.literal === "string" ? Option.some(ast.literal) : Option.none()
  }
  // Structs and class declarations (through their surrogate struct) have properties; anything else has none.
  return Option.fromNullable(AST.getPropertySignatures(ast).find((property) => property.name === head)).pipe(
    Option.flatMap((property) => literalAt(property.type, rest))
  )
}

const build = (): ReadonlyMap<string, ErrorInfo> => {
  const catalog = new Map<string, ErrorInfo>()
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ errors }) => {
      for (const [status, error] of errors) {
        for (const member of Option.match(error.ast, { onNone: () => [], onSome: members })) {
          // The decoded side is the tagged error class; the encoded side is the wire envelope with the code.
          const tag = literalAt(AST.typeAST(member), ["_tag"])
          if (Option.isNone(tag) || catalog.has(tag.value)) continue
          catalog.set(tag.value, { status, code: literalAt(AST.encodedAST(member), ["response", "code"]) })
        }
      }
    }
  })
  return catalog
}

export const errorCatalog: ReadonlyMap<string, ErrorInfo> = build()
