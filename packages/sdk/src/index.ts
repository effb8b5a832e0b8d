export { ProductFields } from "@dastyar/domain"
export type {
  ChatAttachment,
  ChatMethods,
  ChatReply,
  ChatRequest,
  ChatStreamEvent,
  Conversation,
  TurnOptions
} from "./Chat"
export { ChatStreamBroken } from "./ChatEvents"
export { maxBulkDelete } from "./Chunks"
export {
  type ConversationFilters,
  type ConversationListQuery,
  type ConversationsClient,
  type CuratedClient,
  type ExportFilters
} from "./Conversations"
export { DastyarApiError, type DastyarApiErrorInit } from "./DastyarApiError"
export {
  type FileInput,
  FileTooLargeError,
  maxFileBytes,
  maxFilesPerUpload,
  type NamedData,
  toUploadPart,
  type UploadPart
} from "./DocumentFiles"
export { type DocumentsClient, type UploadOptions } from "./Documents"
export * from "./EffectChat"
export * from "./EffectClient"
export * from "./EffectConversations"
export * from "./EffectDocuments"
export * from "./EffectProducts"
export { type ExportFormat, exportRecords } from "./ExportRecords"
export type { components, operations, paths } from "./generated/openapi"
export { type IndexedResult } from "./Indexing"
export { isFinal, JobWaitTimeoutError, type WaitOptions } from "./JobPolling"
export {
  type BatchLimits,
  importBatches,
  type ImportCounts,
  type ImportedBatch,
  importLimits,
  jsonBytes
} from "./ProductBatches"
export * as ProductFeed from "./ProductFeed"
export {
  type ImportAllOptions,
  type IndexWaitOptions,
  IndexWaitTimeoutError,
  type ProductListQuery,
  type ProductsClient
} from "./Products"
export { createDastyarClient, type DastyarClient, type DastyarClientOptions } from "./PromiseClient"
export { createRawClient, type RawClient, type RawClientOptions } from "./RawClient"
export { type Fetch, type RetryOptions } from "./RetryOn429"
export type * from "./Schemas"
export { type SynonymsClient } from "./Synonyms"
export { type AnyFetchResult, type FetchResult, unwrap, unwrapNull } from "./Unwrap"
