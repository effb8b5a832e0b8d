/** Assistant rows. */
import { Assistants, Models } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { selectAs } from "../Database/Database"

/**
 * The API's assistant as stored: its columns are the domain's fields, plus the
 * owner and the lifecycle's reason; the plan's limits are computed, not stored;
 * a stored model key may name a model the catalog has since dropped.
 */
export const AssistantRow = Schema.Struct({
  ...Struct.omit(Assistants.Assistant.fields, "planLimits", "createdAt", "model"),
  accountId: Schema.String,
  model: Schema.String,
  statusReason: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtcFromDate
})
export type AssistantRow = typeof AssistantRow.Type

/** What the public list shows of a row: its columns only are read (and decoded) for it. */
export const ListedAssistantRow = Schema.Struct(Struct.omit(AssistantRow.fields, "accountId", "statusReason"))
export type ListedAssistantRow = typeof ListedAssistantRow.Type

/** Settings columns an insert or update may write. */
export interface AssistantSettings {
  readonly name: string
  readonly instruction: string | null
  readonly model: string
  readonly reasoning: Models.Reasoning
  readonly description: string | null
  readonly personality: typeof Assistants.Personality.Type | null
  readonly language: string | null
  readonly identitySettings: typeof Assistants.IdentitySettings.Type
  readonly ragK: number | null
  readonly maxOutputTokens: number | null
  readonly imageDetail: typeof Assistants.ImageDetail.Type | null
  readonly operatorsCanViewCustomerFiles: boolean
  readonly avatarUrl: string | null
  readonly acceptVoice: boolean
  readonly productSearch: boolean
}

const columns = (settings: AssistantSettings) => ({
  name: settings.name,
  instruction: settings.instruction,
  model: settings.model,
  reasoning: settings.reasoning,
  description: settings.description,
  personality: settings.personality,
  language: settings.language,
  identitySettings: JSON.stringify(settings.identitySettings),
  ragK: settings.ragK,
  maxOutputTokens: settings.maxOutputTokens,
  imageDetail: settings.imageDetail,
  operatorsCanViewCustomerFiles: settings.operatorsCanViewCustomerFiles,
  avatarUrl: settings.avatarUrl,
  acceptVoice: settings.acceptVoice,
  productSearch: settings.productSearch
})

export class AssistantsRepo extends Effect.Service<AssistantsRepo>()("AssistantsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The API's most frequent query: its columns already named as the fields (no per-row name transform).
    const listedColumns = selectAs(sql, Object.keys(ListedAssistantRow.fields))
    const listByAccount = SqlSchema.findAll({
      Request: Schema.String,
      Result: ListedAssistantRow,
      execute: (accountId) =>
        sql`SELECT ${listedColumns} FROM assistants WHERE account_id = ${accountId} ORDER BY created_at, id`
          .withoutTransform
    })
    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: AssistantRow,
      execute: (id) => sql`SELECT * FROM assistants WHERE id = ${id}`
    })
    const findOwned = SqlSchema.findOne({
      Request: Schema.Struct({ accountId: Schema.String, id: Schema.String }),
      Result: AssistantRow,
      execute: ({ accountId, id }) =>
        sql`SELECT * FROM assistants WHERE id = ${id} AND account_id = ${accountId} AND status <> 'deleting'`
    })

    return {
      listByAccount: (accountId: string) => listByAccount(accountId).pipe(Effect.orDie),
      findById: (id: string) => findById(id).pipe(Effect.orDie),
      /** The assistant only if it belongs to the account and is not being deleted. */
      findOwned: (accountId: string, id: string) => findOwned({ accountId, id }).pipe(Effect.orDie),
      insert: (row: { readonly id: string; readonly accountId: string; readonly settings: AssistantSettings }) =>
        sql`INSERT INTO assistants ${
          sql.insert({ id: row.id, accountId: row.accountId, status: "provisioning", ...columns(row.settings) })
        }`.pipe(Effect.orDie),
      updateSettings: (id: string, settings: AssistantSettings) =>
        sql`UPDATE assistants SET ${sql.update(columns(settings))}, updated_at = now() WHERE id = ${id}`.pipe(
          Effect.orDie
        ),
      setStatus: (id: string, status: typeof Assistants.AssistantStatus.Type, reason: string | null = null) =>
        sql`UPDATE assistants SET status = ${status}, status_reason = ${reason}, updated_at = now() WHERE id = ${id}`
          .pipe(Effect.orDie),
      remove: (id: string) => sql`DELETE FROM assistants WHERE id = ${id}`.pipe(Effect.orDie)
    } as const
  })
}) {}
