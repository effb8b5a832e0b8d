/**
 * The promise client's conversation-log and curated-answer methods: one per
 * route, plus iteration over every page of conversations. All take the
 * assistant's id (`assistantCode`) first.
 */
import * as Stream from "effect/Stream"
import { DastyarApiError } from "./DastyarApiError"
import { type ExportFormat, recordsOf } from "./ExportRecords"
import { pagesOf } from "./Paging"
import { fromPromise } from "./Polling"
import { present } from "./Present"
import type { RawClient } from "./RawClient"
import type {
  ConversationPage,
  ConversationSummary,
  ConversationThread,
  CuratedAnswer,
  CuratedCreate,
  CuratedFromQuestion,
  CuratedImportResult,
  CuratedList,
  CuratedUpdate,
  Feedback,
  FeedbackWrite,
  UnansweredReport
} from "./Schemas"
import { type AnyFetchResult, unwrap, unwrapNull } from "./Unwrap"

export interface ConversationFilters {
  readonly channel?: "api" | "web" | "telegram" | "bale" | "whatsapp" | "webhook" | undefined
  /** ISO 8601: started at or after. */
  readonly from?: string | undefined
  /** ISO 8601: started before. */
  readonly to?: string | undefined
  readonly principal?: string | undefined
  readonly negativeFeedback?: boolean | undefined
  readonly needsAttention?: boolean | undefined
}

export interface ExportFilters extends ConversationFilters {
  readonly format?: ExportFormat | undefined
}

export interface ConversationListQuery extends ConversationFilters {
  /** 1 to 200; default 50. */
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface ConversationsClient {
  /** One page, newest first; pass its `nextCursor` for the next one. */
  readonly list: (assistantCode: string, query?: ConversationListQuery) => Promise<ConversationPage>
  /** Every conversation of every page, newest first. */
  readonly all: (assistantCode: string, query?: ConversationListQuery) => AsyncIterable<ConversationSummary>
  readonly get: (assistantCode: string, conversationId: string) => Promise<ConversationThread>
  readonly delete: (assistantCode: string, conversationId: string) => Promise<null>
  /** Everything of one end user; answers how many conversations went. */
  readonly deletePrincipal: (assistantCode: string, principal: string) => Promise<{ readonly deleted: number }>
  /**
   * Every matching conversation, as the server streams it: NDJSON (default), one conversation a record, or CSV, the
   * header then one message a record; each record without its line end. The request is sent by the first `next()`,
   * which throws a refusal as `DastyarApiError`. Only the record being read is held, whatever the export's size.
   */
  readonly export: (assistantCode: string, filters?: ExportFilters) => AsyncGenerator<string>
  /** The same export as one text, held whole in memory: for exports known to be small. */
  readonly exportText: (assistantCode: string, filters?: ExportFilters) => Promise<string>
  /** One vote per answer; the last counts. */
  readonly feedback: (
    assistantCode: string,
    conversationId: string,
    messageId: string,
    vote: FeedbackWrite
  ) => Promise<Feedback>
  /** "Answer this better": a curated answer for the question the answer replied to. */
  readonly answerBetter: (
    assistantCode: string,
    conversationId: string,
    messageId: string,
    body: CuratedFromQuestion
  ) => Promise<CuratedAnswer>
  /** The questions nobody answered, grouped; the last 30 days unless `from`/`to` say otherwise. */
  readonly unanswered: (
    assistantCode: string,
    range?: { readonly from?: string; readonly to?: string; readonly limit?: number }
  ) => Promise<UnansweredReport>
  /** A curated answer whose questions are the group's phrasings. */
  readonly answerGroup: (assistantCode: string, groupId: string, body: CuratedFromQuestion) => Promise<CuratedAnswer>
}

export interface CuratedClient {
  readonly list: (
    assistantCode: string,
    page?: { readonly limit?: number; readonly offset?: number }
  ) => Promise<CuratedList>
  readonly create: (assistantCode: string, body: CuratedCreate) => Promise<CuratedAnswer>
  readonly get: (assistantCode: string, curatedId: string) => Promise<CuratedAnswer>
  readonly update: (assistantCode: string, curatedId: string, body: CuratedUpdate) => Promise<CuratedAnswer>
  readonly delete: (assistantCode: string, curatedId: string) => Promise<null>
  /** CSV text with the columns `questions,answer,language`. */
  readonly import: (assistantCode: string, csv: string) => Promise<CuratedImportResult>
  /** The CSV as it arrives: the header, then one answer a record, each without its line end. */
  readonly export: (assistantCode: string) => AsyncGenerator<string>
  /** The same CSV as one text. */
  readonly exportText: (assistantCode: string) => Promise<string>
}

const flag = (value: boolean | undefined) => (value === true ? ("true" as const) : undefined)

const filterQuery = (filters: ConversationFilters) => ({
  ...present("channel", filters.channel),
  ...present("from", filters.from),
  ...present("to", filters.to),
  ...present("principal", filters.principal),
  ...present("negativeFeedback", flag(filters.negativeFeedback)),
  ...present("needsAttention", flag(filters.needsAttention))
})

/** An openapi-fetch result read with `parseAs: "stream"`. */
interface StreamResult {
  readonly data?: ReadableStream<Uint8Array> | null
  readonly error?: unknown
  readonly response: Response
}

/** A streamed answer (the exports) as it arrives, its records one by one; a refusal is thrown like every other. */
async function* records(send: () => Promise<StreamResult>, format: ExportFormat): AsyncGenerator<string> {
  const result = await send()
  if (!result.response.ok || result.data === undefined || result.data === null) {
    throw DastyarApiError.fromResponse(result.response, result.error)
  }
  yield* recordsOf(result.data, format)
}

/** A text answer (the exports, held whole): the body, or the envelope's error thrown like every other call. */
const text = async (pending: Promise<AnyFetchResult>): Promise<string> => {
  const result = await pending
  if (!result.response.ok || typeof result.data !== "string") {
    throw DastyarApiError.fromResponse(result.response, result.error)
  }
  return result.data
}

export const makeConversationsClient = (raw: RawClient): ConversationsClient => {
  const onConversation = (assistantCode: string, conversationId: string) => ({
    params: { path: { assistantCode, conversationId } }
  })
  const onMessage = (assistantCode: string, conversationId: string, messageId: string) => ({
    params: { path: { assistantCode, conversationId, messageId } }
  })
  const onExport = (assistantCode: string, filters: ExportFilters) => ({
    params: { path: { assistantCode }, query: { ...filterQuery(filters), ...present("format", filters.format) } }
  })
  const list = (assistantCode: string, query: ConversationListQuery = {}) =>
    unwrap(raw.GET("/v1/assistants/{assistantCode}/conversations", {
      params: {
        path: { assistantCode },
        query: {
          ...filterQuery(query),
          ...present("limit", query.limit === undefined ? undefined : String(query.limit)),
          ...present("cursor", query.cursor)
        }
      }
    }))
  return {
    list,
    all: (assistantCode, query = {}) =>
      Stream.toAsyncIterable(
        pagesOf((cursor) => fromPromise(() => list(assistantCode, { ...query, cursor })), query.cursor).pipe(
          Stream.mapConcat((page) => page.list)
        )
      ),
    get: (assistantCode, conversationId) =>
      unwrap(raw.GET(
        "/v1/assistants/{assistantCode}/conversations/{conversationId}",
        onConversation(assistantCode, conversationId)
      )),
    delete: (assistantCode, conversationId) =>
      unwrapNull(raw.DELETE(
        "/v1/assistants/{assistantCode}/conversations/{conversationId}",
        onConversation(assistantCode, conversationId)
      )),
    deletePrincipal: (assistantCode, principal) =>
      unwrap(raw.DELETE("/v1/assistants/{assistantCode}/conversations", {
        params: { path: { assistantCode }, query: { principal } }
      })),
    export: (assistantCode, filters = {}) =>
      records(
        () =>
          raw.GET("/v1/assistants/{assistantCode}/conversations/export", {
            ...onExport(assistantCode, filters),
            parseAs: "stream"
          }),
        filters.format ?? "ndjson"
      ),
    exportText: (assistantCode, filters = {}) =>
      text(raw.GET("/v1/assistants/{assistantCode}/conversations/export", {
        ...onExport(assistantCode, filters),
        parseAs: "text"
      })),
    feedback: (assistantCode, conversationId, messageId, body) =>
      unwrap(raw.PUT(
        "/v1/assistants/{assistantCode}/conversations/{conversationId}/messages/{messageId}/feedback",
        { ...onMessage(assistantCode, conversationId, messageId), body }
      )),
    answerBetter: (assistantCode, conversationId, messageId, body) =>
      unwrap(raw.POST(
        "/v1/assistants/{assistantCode}/conversations/{conversationId}/messages/{messageId}/curated",
        { ...onMessage(assistantCode, conversationId, messageId), body }
      )),
    unanswered: (assistantCode, range = {}) =>
      unwrap(raw.GET("/v1/assistants/{assistantCode}/unanswered", {
        params: {
          path: { assistantCode },
          query: {
            ...present("from", range.from),
            ...present("to", range.to),
            ...present("limit", range.limit === undefined ? undefined : String(range.limit))
          }
        }
      })),
    answerGroup: (assistantCode, groupId, body) =>
      unwrap(raw.POST("/v1/assistants/{assistantCode}/unanswered/{groupId}/curated", {
        params: { path: { assistantCode, groupId } },
        body
      }))
  }
}

export const makeCuratedClient = (raw: RawClient): CuratedClient => {
  const onAssistant = (assistantCode: string) => ({ params: { path: { assistantCode } } })
  const onCurated = (assistantCode: string, curatedId: string) => ({ params: { path: { assistantCode, curatedId } } })
  return {
    list: (assistantCode, page = {}) =>
      unwrap(raw.GET("/v1/assistants/{assistantCode}/curated", {
        params: {
          path: { assistantCode },
          query: {
            ...present("limit", page.limit === undefined ? undefined : String(page.limit)),
            ...present("offset", page.offset === undefined ? undefined : String(page.offset))
          }
        }
      })),
    create: (assistantCode, body) =>
      unwrap(raw.POST("/v1/assistants/{assistantCode}/curated", { ...onAssistant(assistantCode), body })),
    get: (assistantCode, curatedId) =>
      unwrap(raw.GET("/v1/assistants/{assistantCode}/curated/{curatedId}", onCurated(assistantCode, curatedId))),
    update: (assistantCode, curatedId, body) =>
      unwrap(raw.PATCH("/v1/assistants/{assistantCode}/curated/{curatedId}", {
        ...onCurated(assistantCode, curatedId),
        body
      })),
    delete: (assistantCode, curatedId) =>
      unwrapNull(raw.DELETE("/v1/assistants/{assistantCode}/curated/{curatedId}", onCurated(assistantCode, curatedId))),
    import: (assistantCode, csv) =>
      unwrap(
        raw.POST("/v1/assistants/{assistantCode}/curated/import", { ...onAssistant(assistantCode), body: { csv } })
      ),
    export: (assistantCode) =>
      records(
        () =>
          raw.GET("/v1/assistants/{assistantCode}/curated/export", {
            ...onAssistant(assistantCode),
            parseAs: "stream"
          }),
        "csv"
      ),
    exportText: (assistantCode) =>
      text(raw.GET("/v1/assistants/{assistantCode}/curated/export", { ...onAssistant(assistantCode), parseAs: "text" }))
  }
}
