/** The documents routes: every one checks that the key's account owns the assistant first. */
import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "../Assistants/Assistants"
import { Documents } from "./Documents"

export const DocumentsHttpLive = HttpApiBuilder.group(DastyarApi, "documents", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const documents = yield* Documents

    /** The caller's account and the assistant behind `:assistantCode` (404 when it is not theirs). */
    const owned = (assistantCode: string) =>
      Effect.gen(function*() {
        const { accountId } = yield* Auth.CurrentAccount
        const assistant = yield* assistants.requireOwned(accountId, assistantCode)
        return { accountId, assistantId: assistant.id }
      })

    return handlers
      .handle("upload", ({ path, payload }) =>
        Effect.gen(function*() {
          const { accountId, assistantId } = yield* owned(path.assistantCode)
          const list = yield* documents.upload(accountId, assistantId, payload)
          return { list, count: list.length }
        }))
      .handle("uploadText", ({ path, payload }) =>
        Effect.gen(function*() {
          const { accountId, assistantId } = yield* owned(path.assistantCode)
          const list = yield* documents.uploadText(accountId, assistantId, payload)
          return { list, count: list.length }
        }))
      .handle("listJobs", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { assistantId } = yield* owned(path.assistantCode)
          return yield* documents.listJobs(assistantId, urlParams)
        }))
      .handle("job", ({ path }) =>
        Effect.gen(function*() {
          const { assistantId } = yield* owned(path.assistantCode)
          return yield* documents.job(assistantId, path.jobId)
        }))
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { accountId, assistantId } = yield* owned(path.assistantCode)
          const list = yield* documents.list(accountId, assistantId, urlParams.folderId)
          return { list, count: list.length }
        }))
      .handle("delete", ({ path, payload }) =>
        Effect.gen(function*() {
          const { assistantId } = yield* owned(path.assistantCode)
          yield* documents.remove(assistantId, payload.fileIds)
          return null
        }))
  }))
