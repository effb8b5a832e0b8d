/**
 * Synonyms per assistant, steering product search and chunk retrieval: a
 * multi-way set (no `root`: each term finds every other) or a one-way rule
 * (a query with `root` also finds the `synonyms`, not the other way round).
 * Terms are any language, one or more words; they are normalised like
 * everything searched and applied at query time, so a change needs no
 * re-indexing. Names follow Typesense's.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse, PayloadTooLargeResponse } from "./Errors"
import { token } from "./i18n"
import { MaxBodyBytes } from "./Limits"

/** Synonym sets an assistant keeps at most. */
export const maxSynonymSets = 1000
/** Terms of one set at most. */
export const maxTermsPerSet = 50

const Term = Constraint.text({ min: 1, max: 100 })

export const SynonymInput = Schema.Struct({
  root: Schema.optional(
    Schema.NullOr(Term).annotations({ description: "One-way: a query with this term also finds the synonyms" })
  ),
  synonyms: Constraint.arrayOf(Term, { min: 1, max: maxTermsPerSet }).annotations({
    description: "Without a root, each term finds every other (at least two)"
  })
}).pipe(
  Schema.filter((input) =>
    input.root !== undefined && input.root !== null || input.synonyms.length >= 2 ||
    { path: ["synonyms"], message: token("constraint.minItems", { min: 2 }) }
  )
).annotations({
  identifier: "SynonymInput",
  parseOptions: { errors: "all" },
  examples: [{ synonyms: ["گوشی", "موبایل", "تلفن همراه", "phone"] }, { root: "iphone", synonyms: ["phone"] }]
})

export const Synonym = Schema.Struct({
  id: Schema.String,
  root: Schema.NullOr(Schema.String),
  synonyms: Schema.Array(Schema.String)
}).annotations({ identifier: "Synonym" })

export const SynonymReplace = Schema.Struct({
  synonyms: Constraint.arrayOf(SynonymInput, { max: maxSynonymSets })
}).annotations({ identifier: "SynonymReplace", parseOptions: { errors: "all" } })

export class SynonymNotFound extends Schema.TaggedError<SynonymNotFound>()("SynonymNotFound", errorFields) {}
export const SynonymNotFoundResponse = failure(SynonymNotFound, { status: 404, code: "synonyms.not_found" })

export class SynonymLimitReached extends Schema.TaggedError<SynonymLimitReached>()(
  "SynonymLimitReached",
  errorFields
) {}
export const SynonymLimitReachedResponse = failure(SynonymLimitReached, {
  status: 403,
  code: "synonyms.limit_reached"
})

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const synonymPath = HttpApiSchema.param("synonymId", Schema.String)

export class SynonymsApi extends HttpApiGroup.make("synonyms")
  .annotate(OpenApi.Title, "Synonyms")
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/synonyms`
      .annotate(OpenApi.Summary, "List synonyms")
      .addSuccess(success(ListOf(Synonym), { identifier: "SynonymListResponse" }))
  )
  .add(
    HttpApiEndpoint.put("replace")`/assistants/${assistantPath}/synonyms`
      .annotate(OpenApi.Summary, "Replace all synonyms")
      .setPayload(SynonymReplace)
      .addSuccess(success(ListOf(Synonym), { identifier: "SynonymsReplacedResponse" }))
  )
  .add(
    HttpApiEndpoint.post("add")`/assistants/${assistantPath}/synonyms`
      .annotate(OpenApi.Summary, "Add a synonym set")
      .setPayload(SynonymInput)
      .addSuccess(success(Synonym, { identifier: "SynonymCreatedResponse", status: 201 }))
      .addError(SynonymLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/synonyms/${synonymPath}`
      .annotate(OpenApi.Summary, "Delete a synonym set")
      .addSuccess(success(Schema.Null, { identifier: "SynonymDeletedResponse" }))
      .addError(SynonymNotFoundResponse)
  )
  .addError(AssistantNotFoundResponse)
  .addError(PayloadTooLargeResponse)
  .middleware(ApiKeyAuth)
  .annotate(MaxBodyBytes, 1024 * 1024)
  .prefix("/v1")
  .annotate(
    OpenApi.Description,
    "Synonyms of an assistant's search: multi-way sets and one-way rules, applied to product search and " +
      "document retrieval at query time."
  )
{}
