/** The operator's lists of an account, for the console: keys, assistants, folders, usage. */
import { Admin, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { CostLedger } from "../Accounts/CostLedger"
import { Assistants } from "../Assistants/Assistants"
import { FoldersRepo } from "../Folders/FoldersRepo"

const listOf = <A>(list: ReadonlyArray<A>) => ({ list, count: list.length })

export const AdminListsHttpLive = HttpApiBuilder.group(
  DastyarApi,
  "adminAccountLists",
  (handlers) =>
    Effect.gen(function*() {
      const accounts = yield* AccountsRepo
      const assistants = yield* Assistants
      const folders = yield* FoldersRepo
      const ledger = yield* CostLedger

      /** Runs `read` for an existing account, else 404 `accounts.not_found`. */
      const forAccount = <A, E, R>(accountId: string, read: Effect.Effect<A, E, R>) =>
        accounts.find(accountId).pipe(
          Effect.flatMap((found) => Option.isNone(found) ? Effect.fail(new Admin.AccountNotFound()) : Effect.void),
          Effect.zipRight(read)
        )

      return handlers
        .handle(
          "listKeys",
          ({ path }) => forAccount(path.accountId, Effect.map(accounts.listKeys(path.accountId), listOf))
        )
        .handle(
          "listAssistants",
          ({ path }) => forAccount(path.accountId, Effect.map(assistants.listForAccount(path.accountId), listOf))
        )
        .handle(
          "listFolders",
          ({ path }) => forAccount(path.accountId, Effect.map(folders.list(path.accountId), listOf))
        )
        .handle("usage", ({ path }) => forAccount(path.accountId, ledger.monthToDate(path.accountId)))
    })
)
