/** The curated-answer routes: ownership of `:assistantCode`, then the service. */
import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "../Assistants/Assistants"
import { normalizeText } from "../Search/TextNormalization"
import { readCsv, writeCsv } from "./Csv"
import { CuratedAnswers, type CuratedOwner } from "./CuratedAnswers"

export const CuratedHttpLive = HttpApiBuilder.group(DastyarApi, "curated", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const curated = yield* CuratedAnswers

    const ownerOf = (assistantCode: string) =>
      Effect.gen(function*() {
        const caller = yield* Auth.CurrentAccount
        const assistantId = yield* assistants.requireOwnership(caller, assistantCode)
        return { accountId: caller.accountId, assistantId } satisfies CuratedOwner
      })

    return handlers
      .handle("list", ({ path, urlParams }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) => curated.list(owner.assistantId, urlParams.limit ?? 100, urlParams.offset ?? 0))
        ))
      .handle("create", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) => curated.create(owner, payload))))
      .handle("get", ({ path }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) =>
          curated.get(owner.assistantId, path.curatedId)
        )))
      .handle("update", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) =>
            curated.update(owner.assistantId, path.curatedId, payload)
          )
        ))
      .handle("delete", ({ path }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) =>
          curated.remove(owner.assistantId, path.curatedId)
        )))
      .handle("import", ({ path, payload }) =>
        Effect.gen(function*() {
          const owner = yield* ownerOf(path.assistantCode)
          const rows = yield* readCsv(payload.csv)
          // A row replaces the answer whose first question has the same normal form.
          const existing = new Map(
            (yield* curated.all(owner.assistantId)).map((row) => [normalizeText(row.questions[0] ?? ""), row.id])
          )
          const fresh = rows.filter((row) =>
            !existing.has(normalizeText(row.questions[0] ?? ""))
          ).length
          yield* curated.requireRoom(owner.assistantId, fresh)
          let created = 0
          let updated = 0
          for (const row of rows) {
            const key = normalizeText(row.questions[0] ?? "")
            const outcome = yield* curated.put(owner, existing.get(key), row)
            if (outcome === "created") created++
            else updated++
          }
          return { created, updated }
        }))
      .handle("export", ({ path }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) => curated.all(owner.assistantId)),
          Effect.map((rows) =>
            HttpServerResponse.text(writeCsv(rows), {
              contentType: "text/csv; charset=utf-8",
              headers: { "content-disposition": "attachment; filename=\"curated.csv\"" }
            })
          )
        ))
  }))
