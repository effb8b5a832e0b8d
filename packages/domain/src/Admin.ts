/**
 * The operator API under `/admin/v1` (what the public spec calls "the console"):
 * accounts, their API keys, assistants and folders.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import { Assistant, AssistantId, IdentitySettings, ImageDetail, Personality } from "./Assistants"
import { AccountId, AdminAuth, ApiKeyId } from "./Auth"
import * as Channels from "./Channels"
import * as Constraint from "./Constraint"
import * as Content from "./Content"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse } from "./Errors"
import { token } from "./i18n"
import { Model, reasoningLevels } from "./Models"

export const Account = Schema.Struct({
  id: AccountId,
  name: Schema.String,
  plan: Schema.String,
  createdAt: Schema.DateTimeUtc
}).annotations({
  identifier: "Account",
  examples: [{
    id: AccountId.make("acc_4f1c2b7e9a0d3c5e8b6a1f2d"),
    name: "Acme Shop",
    plan: "free",
    createdAt: DateTime.unsafeMake("2026-11-01T09:30:00Z")
  }]
})

export const AccountListQuery = Schema.Struct(Constraint.pageParams(500)).annotations({
  parseOptions: { errors: "all" }
})
export type AccountListQuery = typeof AccountListQuery.Type

export const AccountCreate = Schema.Struct({
  name: Constraint.text({ min: 1, max: 200 }),
  plan: Schema.optional(Constraint.text({ min: 1, max: 100 }))
}).annotations({
  identifier: "AccountCreate",
  parseOptions: { errors: "all" },
  examples: [{ name: "Acme Shop", plan: "pro" }]
})

export const ApiKeyCreate = Schema.Struct({
  name: Schema.optional(Constraint.text({ min: 1, max: 200 }))
}).annotations({ identifier: "ApiKeyCreate", parseOptions: { errors: "all" }, examples: [{ name: "storefront" }] })

export const CreatedApiKey = Schema.Struct({
  id: ApiKeyId,
  name: Schema.NullOr(Schema.String),
  key: Schema.String.annotations({ description: "The raw key; shown only in this response" }),
  createdAt: Schema.DateTimeUtc
}).annotations({
  identifier: "CreatedApiKey",
  examples: [{
    id: ApiKeyId.make("key_9b2e4d6f8a1c3e5b7d9f0a2c"),
    name: "storefront",
    key: "dsk_q3H1v9cX2mZp7LrT0bYkWf5NaJd8Ue4Gs6Ci1Ro2PxA",
    createdAt: DateTime.unsafeMake("2026-11-01T09:31:00Z")
  }]
})

const reasoningInput = Constraint.oneOf(...reasoningLevels)

/** Assistant settings an operator may set; all but `name` optional (and nullable where the field is). */
const settingsFields = {
  model: Constraint.text({ min: 1, max: 200 }),
  instruction: Schema.NullOr(Constraint.text({ max: 20000 })),
  description: Schema.NullOr(Constraint.text({ max: 2000 })),
  personality: Schema.NullOr(Personality),
  language: Schema.NullOr(Constraint.text({ min: 2, max: 35 })),
  reasoning: reasoningInput,
  ragK: Schema.NullOr(Constraint.intBetween(1, 50)),
  maxOutputTokens: Schema.NullOr(Constraint.intBetween(1, 128000)),
  imageDetail: Schema.NullOr(ImageDetail),
  identitySettings: IdentitySettings,
  operatorsCanViewCustomerFiles: Constraint.Boolean,
  avatarUrl: Schema.NullOr(Constraint.text({ max: 2048 })),
  acceptVoice: Constraint.Boolean,
  productSearch: Constraint.Boolean
}

const optionalSettings = {
  model: Schema.optional(settingsFields.model),
  instruction: Schema.optional(settingsFields.instruction),
  description: Schema.optional(settingsFields.description),
  personality: Schema.optional(settingsFields.personality),
  language: Schema.optional(settingsFields.language),
  reasoning: Schema.optional(settingsFields.reasoning),
  ragK: Schema.optional(settingsFields.ragK),
  maxOutputTokens: Schema.optional(settingsFields.maxOutputTokens),
  imageDetail: Schema.optional(settingsFields.imageDetail),
  identitySettings: Schema.optional(settingsFields.identitySettings),
  operatorsCanViewCustomerFiles: Schema.optional(settingsFields.operatorsCanViewCustomerFiles),
  avatarUrl: Schema.optional(settingsFields.avatarUrl),
  acceptVoice: Schema.optional(settingsFields.acceptVoice),
  productSearch: Schema.optional(settingsFields.productSearch)
}

export const AssistantCreate = Schema.Struct({
  name: Constraint.text({ min: 1, max: 200 }),
  ...optionalSettings
}).annotations({
  identifier: "AssistantCreate",
  parseOptions: { errors: "all" },
  examples: [{
    name: "Shop helper",
    instruction: "Answer questions about our products and shipping.",
    personality: "friendly",
    language: "fa",
    productSearch: true
  }]
})
export type AssistantCreate = typeof AssistantCreate.Type

export const AssistantUpdate = Schema.Struct({
  name: Schema.optional(Constraint.text({ min: 1, max: 200 })),
  ...optionalSettings
}).annotations({ identifier: "AssistantUpdate", parseOptions: { errors: "all" } })
export type AssistantUpdate = typeof AssistantUpdate.Type

export const FolderCreate = Schema.Struct({
  name: Constraint.text({ min: 1, max: 255 }).pipe(
    Schema.pattern(/^[^/\\]+$/, { message: () => token("constraint.pattern") })
  )
}).annotations({ identifier: "FolderCreate", parseOptions: { errors: "all" }, examples: [{ name: "Manuals" }] })

export const Folder = Schema.Struct({ id: Constraint.FolderId, name: Schema.String })
  .annotations({
    identifier: "Folder",
    examples: [{ id: Constraint.FolderId.make("3f9a0c2e7b1d4e6f8a0b2c4d6e8f0a1b"), name: "Manuals" }]
  })

export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", errorFields) {}
export const AccountNotFoundResponse = failure(AccountNotFound, { status: 404, code: "accounts.not_found" })

export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", errorFields) {}
export const ApiKeyNotFoundResponse = failure(ApiKeyNotFound, { status: 404, code: "keys.not_found" })

export class FolderNameTaken extends Schema.TaggedError<FolderNameTaken>()("FolderNameTaken", errorFields) {}
export const FolderNameTakenResponse = failure(FolderNameTaken, { status: 409, code: "folders.name_taken" })

export class PlanNotFound extends Schema.TaggedError<PlanNotFound>()("PlanNotFound", errorFields) {}
export const PlanNotFoundResponse = failure(PlanNotFound, { status: 400, code: "plans.not_found" })

export class ModelNotUsable extends Schema.TaggedError<ModelNotUsable>()("ModelNotUsable", errorFields) {}
export const ModelNotUsableResponse = failure(ModelNotUsable, { status: 400, code: "models.not_usable" })

export class BackupNotEmbedded extends Schema.TaggedError<BackupNotEmbedded>()("BackupNotEmbedded", errorFields) {}
export const BackupNotEmbeddedResponse = failure(BackupNotEmbedded, {
  status: 409,
  code: "backup.not_embedded",
  description: "409: the service runs on an external Postgres database; back it up with `pg_dump`"
})

const accountPath = HttpApiSchema.param("accountId", AccountId)
const assistantPath = HttpApiSchema.param("assistantId", AssistantId)
const AssistantResponse = success(Assistant, { identifier: "AdminAssistantResponse" })
const ModelsResponse = success(ListOf(Model), { identifier: "AdminModelListResponse" })

export class AdminApi extends HttpApiGroup.make("admin")
  .annotate(OpenApi.Title, "Admin: accounts and assistants")
  .add(
    HttpApiEndpoint.get("backup", "/backup")
      .annotate(OpenApi.Summary, "Download a backup of the embedded database")
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/gzip" }))
      .addError(BackupNotEmbeddedResponse)
      .annotate(
        OpenApi.Description,
        "Embedded mode only: a consistent copy of the running database, a gzipped tar of the database " +
          "directory's contents (to restore, extract it into `pgdata` of an empty data directory). The data " +
          "directory's `secret-key` is not in it. On Postgres, 409: use `pg_dump`."
      )
  )
  .add(
    HttpApiEndpoint.post("createAccount", "/accounts")
      .annotate(OpenApi.Summary, "Create an account")
      .setPayload(AccountCreate)
      .addSuccess(success(Account, { identifier: "AccountCreatedResponse", status: 201 }))
      .addError(PlanNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("listAccounts", "/accounts")
      .annotate(OpenApi.Summary, "List accounts")
      .setUrlParams(AccountListQuery)
      .addSuccess(success(ListOf(Account), { identifier: "AccountListResponse" }))
      .annotate(
        OpenApi.Description,
        "Every account, oldest first (the demo account, when seeded, comes first). " +
          "`limit` 1 to 500 (default 100), `offset`; `count` is the number of all accounts."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteAccount")`/accounts/${accountPath}`
      .annotate(OpenApi.Summary, "Delete an account")
      .addSuccess(success(Schema.Null, { identifier: "AccountDeletedResponse" }))
      .addError(AccountNotFoundResponse)
      .annotate(OpenApi.Description, "Deletes the account; its keys stop working at once.")
  )
  .add(
    HttpApiEndpoint.post("createKey")`/accounts/${accountPath}/keys`
      .annotate(OpenApi.Summary, "Create an API key")
      .setPayload(ApiKeyCreate)
      .addSuccess(success(CreatedApiKey, { identifier: "ApiKeyCreatedResponse", status: 201 }))
      .addError(AccountNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("revokeKey")`/keys/${HttpApiSchema.param("keyId", ApiKeyId)}`
      .annotate(OpenApi.Summary, "Revoke an API key")
      .addSuccess(success(Schema.Null, { identifier: "ApiKeyRevokedResponse" }))
      .addError(ApiKeyNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("createAssistant")`/accounts/${accountPath}/assistants`
      .annotate(OpenApi.Summary, "Create an assistant")
      .setPayload(AssistantCreate)
      .addSuccess(success(Assistant, { identifier: "AssistantCreatedResponse", status: 201 }))
      .addError(AccountNotFoundResponse)
      .addError(ModelNotUsableResponse)
      .annotate(OpenApi.Description, "Creates the assistant in `provisioning`; it turns `active` within seconds.")
  )
  .add(
    HttpApiEndpoint.get("getAssistant")`/assistants/${assistantPath}`
      .annotate(OpenApi.Summary, "Get an assistant")
      .addSuccess(AssistantResponse)
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.patch("updateAssistant")`/assistants/${assistantPath}`
      .annotate(OpenApi.Summary, "Update an assistant's settings")
      .setPayload(AssistantUpdate)
      .addSuccess(AssistantResponse)
      .addError(AssistantNotFoundResponse)
      .addError(ModelNotUsableResponse)
  )
  .add(
    HttpApiEndpoint.del("deleteAssistant")`/assistants/${assistantPath}`
      .annotate(OpenApi.Summary, "Delete an assistant")
      .addSuccess(success(Assistant, { identifier: "AssistantDeletingResponse", status: 202 }))
      .addError(AssistantNotFoundResponse)
      .annotate(OpenApi.Description, "Moves the assistant to `deleting`; its data is removed in the background.")
  )
  .add(
    HttpApiEndpoint.get("listAccountModels")`/accounts/${accountPath}/models`
      .annotate(OpenApi.Summary, "Models for an account's plan")
      .addSuccess(ModelsResponse)
      .addError(AccountNotFoundResponse)
      .annotate(OpenApi.Description, "The list `/v1/models` gives that account's keys, for choosing a model.")
  )
  .add(
    HttpApiEndpoint.get("listAssistantModels")`/assistants/${assistantPath}/models`
      .annotate(OpenApi.Summary, "Models for the plan of an assistant's account")
      .addSuccess(ModelsResponse)
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("createFolder")`/accounts/${accountPath}/folders`
      .annotate(OpenApi.Summary, "Create a knowledge-base folder")
      .setPayload(FolderCreate)
      .addSuccess(success(Folder, { identifier: "FolderCreatedResponse", status: 201 }))
      .addError(AccountNotFoundResponse)
      .addError(FolderNameTakenResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(
    OpenApi.Description,
    "Operator API (the console): accounts, API keys, assistants and folders. Bearer operator token."
  )
{}

/** Site articles, written by the operator (drafts never reach the public content routes). */
export class AdminContentApi extends HttpApiGroup.make("adminContent")
  .annotate(OpenApi.Title, "Admin: content")
  .add(
    HttpApiEndpoint.get("listArticles", "/content/articles")
      .annotate(OpenApi.Summary, "List articles, drafts included")
      .setUrlParams(Content.AdminArticleListQuery)
      .addSuccess(success(ListOf(Content.AdminArticleSummary), { identifier: "AdminArticleListResponse" }))
      .annotate(
        OpenApi.Description,
        "Every article (optionally of one `type`, `status` or `language`), most recently updated first, without bodies. " +
          "`limit` 1 to 500 (default 100), `offset`; `count` is the number of all matching articles."
      )
  )
  .add(
    HttpApiEndpoint.get("getArticle")`/content/${Content.typePath}/articles/${Content.slugPath}`
      .annotate(OpenApi.Summary, "Get an article, draft or published")
      .addSuccess(success(Content.AdminArticle, { identifier: "AdminArticleResponse" }))
      .addError(Content.ArticleNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.put("putArticle")`/content/${Content.typePath}/articles/${
      HttpApiSchema.param("slug", Content.Slug)
    }`
      .annotate(OpenApi.Summary, "Create or replace an article")
      .setPayload(Content.ArticleWrite)
      .addSuccess(success(Content.ArticleWritten, { identifier: "ArticleWrittenResponse" }))
      .annotate(
        OpenApi.Description,
        "Full replacement by type and slug (a field not sent is cleared). The Markdown is rendered to sanitised HTML. " +
          "Sending the stored fields again changes nothing (`outcome: unchanged`, `updatedAt` kept)."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteArticle")`/content/${Content.typePath}/articles/${Content.slugPath}`
      .annotate(OpenApi.Summary, "Delete an article")
      .addSuccess(success(Schema.Null, { identifier: "ArticleDeletedResponse" }))
      .addError(Content.ArticleNotFoundResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Description, "Operator API: site articles for the public content routes. Bearer operator token.")
{}

const connectionPath = HttpApiSchema.param("connectionCode", Schema.String)

/** Messenger connections of an assistant (Telegram and Bale bots, WhatsApp numbers, custom webhooks). */
export class AdminConnectionsApi extends HttpApiGroup.make("adminConnections")
  .annotate(OpenApi.Title, "Admin: connections")
  .add(
    HttpApiEndpoint.post("createConnection")`/assistants/${assistantPath}/connections`
      .annotate(OpenApi.Summary, "Connect an assistant to a messenger")
      .setPayload(Channels.ConnectionCreate)
      .addSuccess(success(Channels.Connection, { identifier: "ConnectionCreatedResponse", status: 201 }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.TelegramRejectedResponse)
      .addError(Channels.TelegramUnavailableResponse)
      .addError(Channels.MessengerRejectedResponse)
      .addError(Channels.MessengerUnavailableResponse)
      .addError(Channels.SecretKeyMissingResponse)
      .addError(Channels.CallbackUrlRefusedResponse)
      .annotate(
        OpenApi.Description,
        "`telegram`: checks the bot token and registers `hookUrl` with the Bot API (`setWebhook` with a random " +
          "secret token); the bot answers at once. `webhook`: messages are POSTed to `hookUrl`, answers go to " +
          "`callbackUrl`, both signed with `secret`. `bale`: like `telegram`, the secret in the registered URL's path. " +
          "`whatsapp`: checks the phone number ID with the access token; paste `hookUrl` and `verifyToken` into the " +
          "Meta app's webhook settings. Secrets are stored encrypted and never returned."
      )
  )
  .add(
    HttpApiEndpoint.get("listConnections")`/assistants/${assistantPath}/connections`
      .annotate(OpenApi.Summary, "List an assistant's connections")
      .addSuccess(success(ListOf(Channels.Connection), { identifier: "ConnectionListResponse" }))
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("disableConnection")`/assistants/${assistantPath}/connections/${connectionPath}/disable`
      .annotate(OpenApi.Summary, "Disable a connection")
      .addSuccess(success(Channels.Connection, { identifier: "ConnectionDisabledResponse" }))
      .addError(Channels.ConnectionNotFoundResponse)
      .annotate(
        OpenApi.Description,
        "The hook refuses its messages (404) until it is enabled again; a Telegram webhook is removed."
      )
  )
  .add(
    HttpApiEndpoint.post("enableConnection")`/assistants/${assistantPath}/connections/${connectionPath}/enable`
      .annotate(OpenApi.Summary, "Enable a disabled or dead connection")
      .addSuccess(success(Channels.Connection, { identifier: "ConnectionEnabledResponse" }))
      .addError(Channels.ConnectionNotFoundResponse)
      .addError(Channels.TelegramRejectedResponse)
      .addError(Channels.TelegramUnavailableResponse)
      .addError(Channels.MessengerRejectedResponse)
      .addError(Channels.MessengerUnavailableResponse)
      .addError(Channels.SecretKeyMissingResponse)
      .annotate(OpenApi.Description, "Telegram, Bale: registers the webhook again with a new secret.")
  )
  .add(
    HttpApiEndpoint.del("deleteConnection")`/assistants/${assistantPath}/connections/${connectionPath}`
      .annotate(OpenApi.Summary, "Delete a connection")
      .addSuccess(success(Schema.Null, { identifier: "ConnectionDeletedResponse" }))
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Description, "Operator API: messenger connections of assistants. Bearer operator token.")
{}

/** An API key as listed: never its secret, only the first characters to recognise it by. */
export const ApiKeySummary = Schema.Struct({
  id: ApiKeyId,
  prefix: Schema.NullOr(Schema.String).annotations({
    description: "The key's first 8 characters (null for keys made before prefixes were kept)"
  }),
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtc).annotations({ description: "Updated at most once a minute" }),
  revokedAt: Schema.NullOr(Schema.DateTimeUtc)
}).annotations({ identifier: "ApiKeySummary" })
export type ApiKeySummary = typeof ApiKeySummary.Type

/** Tokens of the calendar month so far (UTC), from the cost ledger. */
export const UsageSummary = Schema.Struct({
  period: Schema.String.annotations({ description: "YYYY-MM" }),
  turns: Schema.Int,
  promptTokens: Schema.Int,
  completionTokens: Schema.Int,
  embeddingTokens: Schema.Int,
  totalTokens: Schema.Int
}).annotations({ identifier: "UsageSummary" })
export type UsageSummary = typeof UsageSummary.Type

/** What the console lists of an account: keys, assistants, folders and the month's usage. */
export class AdminAccountListsApi extends HttpApiGroup.make("adminAccountLists")
  .annotate(OpenApi.Title, "Admin: account lists")
  .add(
    HttpApiEndpoint.get("listKeys")`/accounts/${accountPath}/keys`
      .annotate(OpenApi.Summary, "List an account's API keys")
      .addSuccess(success(ListOf(ApiKeySummary), { identifier: "ApiKeyListResponse" }))
      .addError(AccountNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("listAssistants")`/accounts/${accountPath}/assistants`
      .annotate(OpenApi.Summary, "List an account's assistants")
      .addSuccess(success(ListOf(Assistant), { identifier: "AdminAssistantListResponse" }))
      .addError(AccountNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("listFolders")`/accounts/${accountPath}/folders`
      .annotate(OpenApi.Summary, "List an account's folders")
      .addSuccess(success(ListOf(Folder), { identifier: "FolderListResponse" }))
      .addError(AccountNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("usage")`/accounts/${accountPath}/usage`
      .annotate(OpenApi.Summary, "Month-to-date usage of an account")
      .addSuccess(success(UsageSummary, { identifier: "UsageSummaryResponse" }))
      .addError(AccountNotFoundResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Description, "Operator API: an account's keys, assistants, folders and usage.")
{}
