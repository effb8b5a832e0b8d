/**
 * The promise client for plain TypeScript: one method per implemented route,
 * returning the envelope's typed `data` and throwing `DastyarApiError` on
 * every non-2xx answer. `raw` is the typed openapi-fetch client for the rest.
 */
import { type ChatMethods, makeChatMethods } from "./Chat"
import {
  type ConversationsClient,
  type CuratedClient,
  makeConversationsClient,
  makeCuratedClient
} from "./Conversations"
import { type DocumentsClient, makeDocumentsClient } from "./Documents"
import { makeProductsClient, type ProductsClient } from "./Products"
import { createRawClient, type RawClient, type RawClientOptions } from "./RawClient"
import type {
  Account,
  AccountCreate,
  ApiKeyCreate,
  Assistant,
  AssistantCreate,
  AssistantList,
  AssistantOwnerUpdate,
  AssistantUpdate,
  CreatedApiKey,
  Folder,
  FolderCreate,
  ModelList
} from "./Schemas"
import { makeSynonymsClient, type SynonymsClient } from "./Synonyms"
import { unwrap, unwrapNull } from "./Unwrap"

export type DastyarClientOptions = RawClientOptions

/** `chat`, `chatStream` and `conversation` sit at the top level: `client.chat(assistantId, {principal, message})`. */
export interface DastyarClient extends ChatMethods {
  /** Every declared route, typed; answers are returned as `{data, error, response}`, not thrown. */
  readonly raw: RawClient
  readonly assistants: {
    /** All assistants of the key's account. */
    readonly list: () => Promise<AssistantList>
    /** Name, instruction, description, personality, language; absent fields keep their value, null clears. */
    readonly update: (assistantId: string, body: AssistantOwnerUpdate) => Promise<Assistant>
  }
  readonly models: {
    readonly list: () => Promise<ModelList>
  }
  /** An assistant's product catalog. */
  readonly products: ProductsClient
  /** An assistant's search synonyms. */
  readonly synonyms: SynonymsClient
  /** An assistant's knowledge base: uploads, ingest jobs and documents. */
  readonly documents: DocumentsClient
  /** An assistant's conversations, feedback and the report of unanswered questions. */
  readonly conversations: ConversationsClient
  /** An assistant's curated answers. */
  readonly curated: CuratedClient
  /** The operator API; needs `adminToken`. */
  readonly admin: {
    readonly createAccount: (body: AccountCreate) => Promise<Account>
    readonly deleteAccount: (accountId: string) => Promise<null>
    /** The raw key is in the answer only. */
    readonly createKey: (accountId: string, body?: ApiKeyCreate) => Promise<CreatedApiKey>
    readonly revokeKey: (keyId: string) => Promise<null>
    /** Answers in `provisioning`; the assistant turns `active` shortly after. */
    readonly createAssistant: (accountId: string, body: AssistantCreate) => Promise<Assistant>
    readonly getAssistant: (assistantId: string) => Promise<Assistant>
    readonly updateAssistant: (assistantId: string, body: AssistantUpdate) => Promise<Assistant>
    /** Answers with the assistant in `deleting`. */
    readonly deleteAssistant: (assistantId: string) => Promise<Assistant>
    readonly createFolder: (accountId: string, body: FolderCreate) => Promise<Folder>
    /** The models an account's keys see (for its plan), to choose one for its assistant. */
    readonly accountModels: (accountId: string) => Promise<ModelList>
    /** As `accountModels`, for the account that owns the assistant. */
    readonly assistantModels: (assistantId: string) => Promise<ModelList>
  }
}

export const createDastyarClient = (options: DastyarClientOptions): DastyarClient => {
  const raw = createRawClient(options)
  const account = (accountId: string) => ({ params: { path: { accountId } } })
  const assistant = (assistantId: string) => ({ params: { path: { assistantId } } })
  return {
    raw,
    assistants: {
      list: () => unwrap(raw.GET("/v1/assistants")),
      update: (assistantId, body) =>
        unwrap(raw.PATCH("/v1/assistants/{assistantCode}", { params: { path: { assistantCode: assistantId } }, body }))
    },
    models: { list: () => unwrap(raw.GET("/v1/models")) },
    products: makeProductsClient(raw),
    synonyms: makeSynonymsClient(raw),
    documents: makeDocumentsClient(raw),
    conversations: makeConversationsClient(raw),
    curated: makeCuratedClient(raw),
    ...makeChatMethods(raw),
    admin: {
      createAccount: (body) => unwrap(raw.POST("/admin/v1/accounts", { body })),
      deleteAccount: (accountId) => unwrapNull(raw.DELETE("/admin/v1/accounts/{accountId}", account(accountId))),
      createKey: (accountId, body = {}) =>
        unwrap(raw.POST("/admin/v1/accounts/{accountId}/keys", { ...account(accountId), body })),
      revokeKey: (keyId) => unwrapNull(raw.DELETE("/admin/v1/keys/{keyId}", { params: { path: { keyId } } })),
      createAssistant: (accountId, body) =>
        unwrap(raw.POST("/admin/v1/accounts/{accountId}/assistants", { ...account(accountId), body })),
      getAssistant: (assistantId) => unwrap(raw.GET("/admin/v1/assistants/{assistantId}", assistant(assistantId))),
      updateAssistant: (assistantId, body) =>
        unwrap(raw.PATCH("/admin/v1/assistants/{assistantId}", { ...assistant(assistantId), body })),
      deleteAssistant: (assistantId) =>
        unwrap(raw.DELETE("/admin/v1/assistants/{assistantId}", assistant(assistantId))),
      createFolder: (accountId, body) =>
        unwrap(raw.POST("/admin/v1/accounts/{accountId}/folders", { ...account(accountId), body })),
      accountModels: (accountId) => unwrap(raw.GET("/admin/v1/accounts/{accountId}/models", account(accountId))),
      assistantModels: (assistantId) =>
        unwrap(raw.GET("/admin/v1/assistants/{assistantId}/models", assistant(assistantId)))
    }
  }
}
