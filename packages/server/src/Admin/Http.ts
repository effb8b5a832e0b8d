/** The operator API: accounts, keys, assistants and folders. */
import { Admin, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { Assistants } from "../Assistants/Assistants"
import { EmbeddedBackup } from "../Database/Database"
import { FoldersRepo } from "../Folders/FoldersRepo"
import { ModelCatalog } from "../Models/ModelCatalog"

export const AdminHttpLive = HttpApiBuilder.group(DastyarApi, "admin", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const assistants = yield* Assistants
    const folders = yield* FoldersRepo
    const catalog = yield* ModelCatalog
    const backup = yield* EmbeddedBackup

    const requireAccount = (accountId: string) =>
      accounts.find(accountId).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(new Admin.AccountNotFound()), onSome: Effect.succeed }))
      )

    return handlers
      .handle("backup", () =>
        Option.match(backup, { onNone: () => Effect.fail(new Admin.BackupNotEmbedded()), onSome: (dump) => dump }))
      .handle("createAccount", ({ payload }) =>
        Effect.gen(function*() {
          const plan = payload.plan ?? catalog.defaultPlan
          if (Option.isNone(catalog.planOf(plan))) {
            return yield* new Admin.PlanNotFound()
          }
          return yield* accounts.create({ name: payload.name, plan })
        }))
      .handle("listAccounts", ({ urlParams }) =>
        accounts.page({ limit: urlParams.limit ?? 100, offset: urlParams.offset ?? 0 }))
      .handle("deleteAccount", ({ path }) =>
        Effect.gen(function*() {
          if (!(yield* accounts.delete(path.accountId))) {
            return yield* new Admin.AccountNotFound()
          }
          return null
        }))
      .handle("createKey", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* requireAccount(path.accountId)
          return yield* accounts.createKey(path.accountId, payload.name ?? null)
        }))
      .handle("revokeKey", ({ path }) =>
        Effect.gen(function*() {
          if (!(yield* accounts.revokeKey(path.keyId))) {
            return yield* new Admin.ApiKeyNotFound()
          }
          return null
        }))
      .handle("createAssistant", ({ path, payload }) =>
        assistants.create(path.accountId, payload))
      .handle("getAssistant", ({ path }) =>
        assistants.get(path.assistantId))
      .handle("updateAssistant", ({ path, payload }) =>
        assistants.update(path.assistantId, payload))
      .handle("deleteAssistant", ({ path }) => assistants.delete(path.assistantId))
      .handle("listAccountModels", ({ path }) => assistants.modelsForAccount(path.accountId))
      .handle("listAssistantModels", ({ path }) => assistants.modelsForAssistant(path.assistantId))
      .handle("createFolder", ({ path, payload }) =>
        Effect.gen(function*() {
          yield* requireAccount(path.accountId)
          return yield* folders.create(path.accountId, payload.name)
        }))
  }))
