/**
 * Encoders compiled once from a schema's AST, for values the service built
 * itself and so already valid: the wire object `Schema.encode` writes (same
 * keys, same order, excess keys dropped), without re-checking every field
 * through a chain of small effects, which costs more than the cheap request
 * around it. Nodes that really transform (dates, classes) and unions that need
 * a check to pick their member are still encoded by the schema, node by node.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

type Encode = (value: unknown) => unknown

const same: Encode = (value) => value

const bySchema = (ast: AST.AST): Encode => ParseResult.encodeUnknownSync(Schema.make(ast))

const isRecord = (value: unknown): value is Readonly<Record<PropertyKey, unknown>> =>
  typeof value === "object" && value !== null

const isAbsent = (ast: AST.AST) => AST.isUndefinedKeyword(ast) || (AST.isLiteral(ast) && ast.literal === null)

const compile = (ast: AST.AST): Encode => {
  switch (ast._tag) {
    case "Refinement":
      return compile(ast.from)
    case "Suspend": {
      let compiled: Encode | undefined
      return (value) => (compiled ??= compile(ast.f()))(value)
    }
    case "TypeLiteral": {
      // A record of wire-form values (a product's attributes) is its own wire form: its string keys are
      // written as they are, and JSON has no other keys. Encoding it by the schema was a tenth of what a
      // search allocated. (A struct without fields is any object to the schema, which keeps it whole too.)
      if (
        ast.propertySignatures.length === 0 &&
        ast.indexSignatures.every((signature) =>
          AST.isStringKeyword(signature.parameter) && compile(signature.type) === same
        )
      ) return same
      if (ast.indexSignatures.length > 0) return bySchema(ast)
      const properties = ast.propertySignatures.map((property) => ({
        name: property.name,
        isOptional: property.isOptional,
        encode: compile(property.type)
      }))
      return (value) => {
        if (!isRecord(value)) return bySchema(ast)(value)
        const wire: Record<PropertyKey, unknown> = {}
        for (const { encode, isOptional, name } of properties) {
          if (isOptional && !Object.hasOwn(value, name)) continue
          wire[name] = encode(value[name])
        }
        return wire
      }
    }
    case "TupleType": {
      const rest = ast.rest[0]
      if (ast.elements.length > 0 || ast.rest.length !== 1 || rest === undefined) return bySchema(ast)
      const item = compile(rest.type)
      return item === same ? same : (value) => Array.isArray(value) ? value.map(item) : bySchema(ast)(value)
    }
    case "Union": {
      const members = ast.types.map(compile)
      if (members.every((member) => member === same)) return same
      // `X | null` (or undefined): no check is needed to tell which member a value is.
      const present = ast.types.filter((member) => !isAbsent(member))
      const only = present[0]
      if (present.length !== 1 || only === undefined) return bySchema(ast)
      const encode = compile(only)
      return (value) => (value === null || value === undefined ? value : encode(value))
    }
    case "Transformation":
      return ast.transformation._tag === "FinalTransformation"
        ? compileFinal(ast, ast.transformation)
        : bySchema(ast)
    case "Declaration":
      return bySchema(ast)
    default:
      // Keywords, literals, enums and template literals are their own wire form.
      return same
  }
}

/** A declaration without type parameters only checks its values: for trusted ones, nothing to do. */
const compileTarget = (ast: AST.AST): Encode =>
  AST.isDeclaration(ast) && ast.typeParameters.length === 0 ? same : compile(ast)

const trusted: AST.ParseOptions = {}

/**
 * A transformation with its own encode function (a date to its ISO string, …): called directly. Most
 * answer synchronously with an `Either`; one that needs effects is left to the schema.
 */
const compileFinal = (ast: AST.Transformation, transformation: AST.FinalTransformation): Encode => {
  const target = compileTarget(ast.to)
  const source = compile(ast.from)
  const slow = bySchema(ast)
  return (value) => {
    const result = transformation.encode(target(value), trusted, ast, value)
    return Either.isEither(result) && Either.isRight(result) ? source(result.right) : slow(value)
  }
}

/**
 * What `Schema.encodeSync(schema)` returns, for values the service built itself; typed `unknown`
 * because it goes straight to JSON (`test/Http/WireEncoding.test.ts` pins the bytes to the schema's).
 */
export const make = <A, I>(schema: Schema.Schema<A, I>): (value: A) => unknown => compile(schema.ast)
