/**
 * Assistants: creation and settings (operator API), the public list, ownership
 * checks for every `:assistantCode` route, and the lifecycle queue that
 * provisions new assistants and removes deleted ones in the background.
 */
import { Admin, Assistants as Domain, type Auth, Errors } from "@dastyar/domain"
import { PersistedQueue } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { AccountsRepo, ownerCacheTtl } from "../Accounts/AccountsRepo"
import { Invalidations } from "../Database/Invalidations"
import { newId } from "../Ids"
import { ModelCatalog } from "../Models/ModelCatalog"
import { elementId } from "../Queue/Queue"
import { currentTraceLink, linksTo, TraceLink, withSpanWhenTracing } from "../Telemetry"
import { type AssistantRow, type AssistantSettings, AssistantsRepo, type ListedAssistantRow } from "./AssistantsRepo"

export const LifecycleTask = Schema.Union(
  Schema.TaggedStruct("Provision", { assistantId: Schema.String, queuedBy: Schema.optional(TraceLink) }),
  Schema.TaggedStruct("Delete", { assistantId: Schema.String, queuedBy: Schema.optional(TraceLink) })
)
export type LifecycleTask = typeof LifecycleTask.Type

const defaults = {
  instruction: null,
  description: null,
  personality: null,
  language: null,
  reasoning: "none",
  identitySettings: { fields: [], otp: false },
  ragK: null,
  maxOutputTokens: null,
  imageDetail: null,
  operatorsCanViewCustomerFiles: false,
  avatarUrl: null,
  acceptVoice: false,
  productSearch: true
} as const

/** Applies sent fields over `base`; absent fields keep their value. */
const applySettings = (base: AssistantSettings, input: Admin.AssistantUpdate): AssistantSettings => ({
  name: input.name ?? base.name,
  model: input.model ?? base.model,
  instruction: input.instruction !== undefined ? input.instruction : base.instruction,
  description: input.description !== undefined ? input.description : base.description,
  personality: input.personality !== undefined ? input.personality : base.personality,
  language: input.language !== undefined ? input.language : base.language,
  reasoning: input.reasoning ?? base.reasoning,
  identitySettings: input.identitySettings ?? base.identitySettings,
  ragK: input.ragK !== undefined ? input.ragK : base.ragK,
  maxOutputTokens: input.maxOutputTokens !== undefined ? input.maxOutputTokens : base.maxOutputTokens,
  imageDetail: input.imageDetail !== undefined ? input.imageDetail : base.imageDetail,
  operatorsCanViewCustomerFiles: input.operatorsCanViewCustomerFiles ?? base.operatorsCanViewCustomerFiles,
  avatarUrl: input.avatarUrl !== undefined ? input.avatarUrl : base.avatarUrl,
  acceptVoice: input.acceptVoice ?? base.acceptVoice,
  productSearch: input.productSearch ?? base.productSearch
})

/** An assistant being deleted is no longer the caller's to use: its routes answer 404 from the moment it is marked. */
const isServing = (row: { readonly status: string }) => row.status !== "deleting"

interface OwnedPair {
  readonly accountId: string
  readonly assistantId: string
}

export class Assistants extends Effect.Service<Assistants>()("Assistants", {
  effect: Effect.gen(function*() {
    const repo = yield* AssistantsRepo
    const catalog = yield* ModelCatalog
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const invalidations = yield* Invalidations
    const lifecycle = yield* PersistedQueue.make({ name: "assistant-lifecycle", schema: LifecycleTask })

    /** The public view: the row without its account and status reason, plus the plan's limits. */
    const toResponse = (
      { accountId: _accountId, statusReason: _statusReason, ...assistant }:
        & ListedAssistantRow
        & Partial<Pick<AssistantRow, "accountId" | "statusReason">>,
      planLimits: Domain.Assistant["planLimits"]
    ): Domain.Assistant => ({ ...assistant, planLimits })

    const planLimitsOf = (plan: string) => ({ products: catalog.productLimit(plan) })

    const requireUsableModel = (plan: string, model: string) =>
      catalog.isUsable(plan, model) ? Effect.void : Effect.fail(new Admin.ModelNotUsable())

    /** The account's plan, or 404 for an unknown account. */
    const accountPlan = (accountId: string) =>
      accounts.plan(accountId).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(new Admin.AccountNotFound()), onSome: Effect.succeed }))
      )

    /**
     * Account and assistant pairs found owned, for `ownerCacheTtl` (as keys are): the catalog's routes need
     * no more than that, and a search paid a statement for it. Only owned pairs are kept, never one being
     * deleted; a deletion (of the assistant or its account) on any instance forgets them on every instance at once.
     */
    const ownedPairs = yield* invalidations.cache({
      topics: ["assistants"],
      capacity: 10_000,
      timeToLive: ownerCacheTtl,
      keyOf: (pair: OwnedPair) => JSON.stringify([pair.accountId, pair.assistantId]),
      lookup: (pair: OwnedPair) =>
        repo.findOwned(pair.accountId, pair.assistantId).pipe(Effect.map(Option.exists(isServing)))
    })
    const pairKey = (accountId: string, assistantId: string): OwnedPair => ({ accountId, assistantId })

    const findForOperator = (id: string) =>
      repo.findById(id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Errors.AssistantNotFound()),
          onSome: Effect.succeed
        }))
      )

    /** An assistant being deleted is no longer its owner's: every route answers 404 from the delete call on. */
    const findOwnedRow = (accountId: string, assistantCode: string) =>
      repo.findOwned(accountId, assistantCode).pipe(
        Effect.map(Option.filter(isServing)),
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Errors.AssistantNotFound()),
          onSome: Effect.succeed
        }))
      )

    return {
      /** Public list: every assistant of the account, `planLimits` null as the spec says. */
      // On the API's most frequent request: a span only when tracing is on (`Effect.fn` makes one, and an `Error`).
      listForAccount: (accountId: string) =>
        repo.listByAccount(accountId).pipe(
          Effect.map((rows) => rows.map((row) => toResponse(row, null))),
          withSpanWhenTracing("Assistants.list", { captureStackTrace: false })
        ),

      /** The assistant behind `:assistantCode`, only if the caller's account owns it. */
      requireOwned: Effect.fn("Assistants.requireOwned")(function*(accountId: string, assistantCode: string) {
        return yield* findOwnedRow(accountId, assistantCode)
      }),

      /**
       * As `requireOwned` for a caller that needs the assistant's id only: answered from the assistants read
       * with the caller's key when it is among them, else from `ownedPairs`.
       */
      requireOwnership: (caller: Context.Tag.Service<typeof Auth.CurrentAccount>, assistantCode: string) =>
        Effect.gen(function*() {
          if (caller.assistantIds.includes(assistantCode)) return assistantCode
          const pair = pairKey(caller.accountId, assistantCode)
          if (yield* ownedPairs.get(pair)) return assistantCode
          yield* ownedPairs.invalidate(pair)
          return yield* new Errors.AssistantNotFound()
        }).pipe(withSpanWhenTracing("Assistants.requireOwnership", { captureStackTrace: false })),

      create: Effect.fn("Assistants.create")(function*(accountId: string, input: Admin.AssistantCreate) {
        const plan = yield* accountPlan(accountId)
        const settings = applySettings({ ...defaults, name: input.name, model: catalog.defaultModel }, input)
        yield* requireUsableModel(plan, settings.model)
        const id = newId("ast")
        yield* Effect.gen(function*() {
          yield* repo.insert({ id, accountId, settings })
          const queuedBy = yield* currentTraceLink
          yield* lifecycle.offer({ _tag: "Provision", assistantId: id, queuedBy }, {
            id: elementId("assistant-provision", id)
          })
        }).pipe(sql.withTransaction, Effect.orDie)
        const row = yield* findForOperator(id).pipe(Effect.orDie)
        return toResponse(row, planLimitsOf(plan))
      }),

      get: Effect.fn("Assistants.get")(function*(id: string) {
        const row = yield* findForOperator(id)
        const plan = yield* accountPlan(row.accountId).pipe(Effect.orDie)
        return toResponse(row, planLimitsOf(plan))
      }),

      update: Effect.fn("Assistants.update")(function*(id: string, input: Admin.AssistantUpdate) {
        const row = yield* findForOperator(id)
        const plan = yield* accountPlan(row.accountId).pipe(Effect.orDie)
        if (input.model !== undefined && input.model !== row.model) yield* requireUsableModel(plan, input.model)
        yield* repo.updateSettings(id, applySettings(row, input))
        return toResponse(yield* findForOperator(id), planLimitsOf(plan))
      }),

      /** A key holder's change to its own assistant (name, instruction, language…); 404 for another's. */
      updateOwned: Effect.fn("Assistants.updateOwned")(
        function*(accountId: string, assistantCode: string, input: Domain.AssistantOwnerUpdate) {
          const row = yield* findOwnedRow(accountId, assistantCode)
          yield* repo.updateSettings(row.id, applySettings(row, input))
          return toResponse(yield* findOwnedRow(accountId, assistantCode), null)
        }
      ),

      /** The model list an account's keys see, for the operator choosing a model for that account. */
      modelsForAccount: Effect.fn("Assistants.modelsForAccount")(function*(accountId: string) {
        const list = catalog.listFor(yield* accountPlan(accountId))
        return { list, count: list.length }
      }),

      /** As `modelsForAccount`, for the account that owns the assistant. */
      modelsForAssistant: Effect.fn("Assistants.modelsForAssistant")(function*(id: string) {
        const row = yield* findForOperator(id)
        const list = catalog.listFor(yield* accountPlan(row.accountId).pipe(Effect.orDie))
        return { list, count: list.length }
      }),

      /** Marks the assistant `deleting` at once; the lifecycle worker removes its data. */
      delete: Effect.fn("Assistants.delete")(function*(id: string) {
        const row = yield* findForOperator(id)
        const plan = yield* accountPlan(row.accountId).pipe(Effect.orDie)
        yield* ownedPairs.invalidate(pairKey(row.accountId, id))
        yield* Effect.gen(function*() {
          yield* repo.setStatus(id, "deleting")
          const queuedBy = yield* currentTraceLink
          yield* lifecycle.offer({ _tag: "Delete", assistantId: id, queuedBy }, {
            id: elementId("assistant-delete", id)
          })
        }).pipe(sql.withTransaction, Effect.orDie)
        // After the commit: a lookup between the emptying and the commit would keep the assistant again.
        yield* invalidations.publish("assistants")
        return toResponse({ ...row, status: "deleting" }, planLimitsOf(plan))
      }),

      /** Processes one lifecycle task; waits while the queue is empty. */
      processNext: lifecycle.take((task) =>
        Effect.gen(function*() {
          const row = yield* repo.findById(task.assistantId)
          if (Option.isNone(row)) return
          const assistant = row.value
          if (task._tag === "Delete") {
            // Dependent data (documents, products, conversations) goes with the row (ON DELETE CASCADE).
            yield* repo.remove(assistant.id)
            yield* invalidations.publish("assistants")
            yield* Effect.logInfo("assistant deleted").pipe(Effect.annotateLogs({ assistantId: assistant.id }))
            return
          }
          if (assistant.status !== "provisioning") return
          const plan = yield* accountPlan(assistant.accountId).pipe(Effect.orDie)
          const problem = Option.isNone(catalog.findModel(assistant.model))
            ? "unknown model"
            : !catalog.isUsable(plan, assistant.model)
            ? "model not usable on the account's plan"
            : null
          yield* repo.setStatus(assistant.id, problem === null ? "active" : "provisioning_failed", problem)
          yield* Effect.logInfo("assistant provisioned").pipe(
            Effect.annotateLogs({
              assistantId: assistant.id,
              status: problem === null ? "active" : "provisioning_failed"
            })
          )
        }).pipe(Effect.withSpan("Assistants.lifecycle", {
          attributes: { task: task._tag, "dastyar.assistant_id": task.assistantId },
          links: linksTo(task.queuedBy),
          root: true
        }))
      )
    } as const
  }),
  dependencies: [AssistantsRepo.Default, ModelCatalog.Default, AccountsRepo.Default, Invalidations.Default]
}) {}
