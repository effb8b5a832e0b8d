/**
 * Curated answers: written by the shop, served in chat instead of a model's
 * answer when a customer's question matches one of its question variants
 * closely (see docs/conversations.md for the threshold).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse } from "./Errors"

export const maxQuestions = 20
export const maxQuestionChars = 1000

const Question = Constraint.text({ min: 1, max: maxQuestionChars })
const Questions = Constraint.arrayOf(Question, { min: 1, max: maxQuestions })
const Answer = Constraint.text({ min: 1, max: 10000 })
const Language = Schema.NullOr(Constraint.text({ min: 2, max: 35 }))

export const CuratedAnswer = Schema.Struct({
  id: Schema.String,
  questions: Schema.Array(Schema.String),
  answer: Schema.String,
  language: Schema.NullOr(Schema.String),
  hitCount: Schema.Int,
  lastHitAt: Schema.NullOr(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "CuratedAnswer" })
export type CuratedAnswer = typeof CuratedAnswer.Type

export const CuratedCreate = Schema.Struct({
  questions: Questions,
  answer: Answer,
  language: Schema.optional(Language)
}).annotations({
  identifier: "CuratedCreate",
  parseOptions: { errors: "all" },
  examples: [{ questions: ["Do you ship to Kish?"], answer: "Yes, in 3 to 5 working days.", language: "en" }]
})
export type CuratedCreate = typeof CuratedCreate.Type

export const CuratedUpdate = Schema.partial(Schema.Struct({ questions: Questions, answer: Answer, language: Language }))
  .annotations({ identifier: "CuratedUpdate", parseOptions: { errors: "all" } })
export type CuratedUpdate = typeof CuratedUpdate.Type

/** A curated answer made from a conversation's question or a report group: the questions come from there. */
export const CuratedFromQuestion = Schema.Struct({
  answer: Answer,
  language: Schema.optional(Language),
  questions: Schema.optional(Constraint.arrayOf(Question, { max: maxQuestions }))
}).annotations({ identifier: "CuratedFromQuestion", parseOptions: { errors: "all" } })
export type CuratedFromQuestion = typeof CuratedFromQuestion.Type

export const CuratedListQuery = Schema.Struct(Constraint.pageParams(500)).annotations({
  parseOptions: { errors: "all" }
})

/** CSV: a header `questions,answer,language`, questions separated by ` | ` within their cell. */
export const CuratedImport = Schema.Struct({
  csv: Constraint.text({ min: 1, max: 2_000_000 })
}).annotations({ identifier: "CuratedImport", parseOptions: { errors: "all" } })

export const CuratedImportResult = Schema.Struct({ created: Schema.Int, updated: Schema.Int })
  .annotations({ identifier: "CuratedImportResult" })

export class CuratedNotFound extends Schema.TaggedError<CuratedNotFound>()("CuratedNotFound", errorFields) {}
export const CuratedNotFoundResponse = failure(CuratedNotFound, { status: 404, code: "curated.not_found" })

export class CuratedCsvInvalid extends Schema.TaggedError<CuratedCsvInvalid>()("CuratedCsvInvalid", {
  ...errorFields,
  line: Schema.optional(Schema.Int)
}) {}
export const CuratedCsvInvalidResponse = failure(CuratedCsvInvalid, { status: 400, code: "curated.csv_invalid" })

export class CuratedLimitReached extends Schema.TaggedError<CuratedLimitReached>()(
  "CuratedLimitReached",
  errorFields
) {}
export const CuratedLimitReachedResponse = failure(CuratedLimitReached, { status: 409, code: "curated.limit_reached" })

/** Curated answers per assistant: matching compares a question against every variant of every one. */
export const maxCuratedPerAssistant = 2000

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const curatedPath = HttpApiSchema.param("curatedId", Constraint.text({ min: 1, max: 64 }))

export const CsvBody = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" }))

export class CuratedApi extends HttpApiGroup.make("curated")
  .annotate(OpenApi.Title, "Curated answers")
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/curated`
      .annotate(OpenApi.Summary, "List curated answers")
      .annotate(OpenApi.Description, "Most recently updated first. `limit` 1 to 500 (default 100), `offset`.")
      .setUrlParams(CuratedListQuery)
      .addSuccess(success(ListOf(CuratedAnswer), { identifier: "CuratedListResponse" }))
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("create")`/assistants/${assistantPath}/curated`
      .annotate(OpenApi.Summary, "Create a curated answer")
      .setPayload(CuratedCreate)
      .addSuccess(success(CuratedAnswer, { identifier: "CuratedCreatedResponse", status: 201 }))
      .addError(AssistantNotFoundResponse)
      .addError(CuratedLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.post("import")`/assistants/${assistantPath}/curated/import`
      .annotate(OpenApi.Summary, "Import curated answers from CSV")
      .annotate(
        OpenApi.Description,
        "Columns `questions,answer,language`; several questions in one cell are separated by ` | `. A row whose " +
          "first question matches an existing answer's first question (same normal form) replaces it."
      )
      .setPayload(CuratedImport)
      .addSuccess(success(CuratedImportResult, { identifier: "CuratedImportResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(CuratedCsvInvalidResponse)
      .addError(CuratedLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.get("export")`/assistants/${assistantPath}/curated/export`
      .annotate(OpenApi.Summary, "Export curated answers as CSV")
      .addSuccess(CsvBody)
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("get")`/assistants/${assistantPath}/curated/${curatedPath}`
      .annotate(OpenApi.Summary, "Get a curated answer")
      .addSuccess(success(CuratedAnswer, { identifier: "CuratedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(CuratedNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.patch("update")`/assistants/${assistantPath}/curated/${curatedPath}`
      .annotate(OpenApi.Summary, "Update a curated answer")
      .setPayload(CuratedUpdate)
      .addSuccess(success(CuratedAnswer, { identifier: "CuratedUpdatedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(CuratedNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/curated/${curatedPath}`
      .annotate(OpenApi.Summary, "Delete a curated answer")
      .addSuccess(success(Schema.Null, { identifier: "CuratedDeletedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(CuratedNotFoundResponse)
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "Answers the shop wrote, served instead of a model's when a question matches.")
{}
