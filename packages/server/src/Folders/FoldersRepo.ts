/** Knowledge-base folders of an account (created through the operator API). */
import { Admin, Constraint } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { isUniqueViolation } from "../Database/Constraints"
import { ReadSql } from "../Database/Replicas"
import { newHexId } from "../Ids"

const FolderRow = Schema.Struct({ id: Constraint.FolderId, name: Schema.String })

export class FoldersRepo extends Effect.Service<FoldersRepo>()("FoldersRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The list may be served by a replica (Database/Replicas.ts).
    const readSql = yield* ReadSql
    const insert = SqlSchema.single({
      Request: Schema.Struct({ id: Schema.String, accountId: Schema.String, name: Schema.String }),
      Result: FolderRow,
      execute: (row) => sql`INSERT INTO folders ${sql.insert(row)} RETURNING id, name`
    })
    const listByAccount = SqlSchema.findAll({
      Request: Schema.String,
      Result: FolderRow,
      execute: (accountId) => readSql`SELECT id, name FROM folders WHERE account_id = ${accountId} ORDER BY name`
    })
    return {
      list: (accountId: string) => listByAccount(accountId).pipe(Effect.orDie),
      create: Effect.fn("Folders.create")(function*(accountId: string, name: string) {
        return yield* insert({ id: newHexId(), accountId, name }).pipe(
          Effect.catchTags({
            SqlError: (error) =>
              isUniqueViolation(error) ? Effect.fail(new Admin.FolderNameTaken()) : Effect.die(error),
            ParseError: Effect.die,
            NoSuchElementException: Effect.die
          })
        )
      })
    } as const
  })
}) {}
