/**
 * Connections of assistants to messengers, for the operator: create (a
 * Telegram bot's webhook is registered at once), list, disable, enable,
 * delete; and for the hook and the worker: a connection with its secrets opened.
 */
import { Assistants, Channels, Errors } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { AssistantsRepo } from "../Assistants/AssistantsRepo"
import { AppConfig } from "../Config"
import { newId } from "../Ids"
import { type ConnectionRow, ConnectionsRepo } from "./ConnectionsRepo"
import { SecretBox } from "./SecretBox"
import { BotApi, type BotApiError } from "./Telegram/BotApi"
import * as CallbackAddress from "./Webhook/CallbackAddress"

/** What `secrets` holds once opened, per driver. */
export const Secrets = Schema.Union(
  Schema.TaggedStruct("telegram", { botToken: Schema.String, hookSecret: Schema.String }),
  Schema.TaggedStruct("webhook", { secret: Schema.String })
)
export type Secrets = typeof Secrets.Type
const SecretsJson = Schema.parseJson(Secrets)

/** A connection as the hook and the worker need it. */
export interface OpenConnection {
  readonly row: ConnectionRow
  readonly secrets: Secrets
}

/** Telegram's `secret_token`: 1 to 256 of `A-Z a-z 0-9 _ -`. */
const newHookSecret = () => randomBytes(32).toString("base64url")

const fromBotApi = (error: BotApiError) =>
  error.transient ? new Channels.TelegramUnavailable() : new Channels.TelegramRejected()

export class Connections extends Effect.Service<Connections>()("Connections", {
  effect: Effect.gen(function*() {
    const repo = yield* ConnectionsRepo
    const assistants = yield* AssistantsRepo
    const box = yield* SecretBox
    const botApi = yield* BotApi
    const config = yield* AppConfig
    const publicUrl = Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`).replace(/\/+$/, "")

    const hookUrl = (driver: Channels.Driver, code: string) => `${publicUrl}/hooks/${driver}/${code}`

    const toResponse = (row: ConnectionRow): Channels.Connection => ({
      connectionCode: Channels.ConnectionCode.make(row.code),
      assistantId: Assistants.AssistantId.make(row.assistantId),
      driver: row.driver,
      hookUrl: hookUrl(row.driver, row.code),
      status: row.status,
      statusReason: row.statusReason,
      botUsername: row.botUsername,
      callbackUrl: row.callbackUrl,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt
    })

    const seal = (code: string, secrets: Secrets) =>
      Effect.flatMap(Schema.encode(SecretsJson)(secrets).pipe(Effect.orDie), (json) => box.seal(json, code))

    const open = (row: ConnectionRow) =>
      box.open(row.secrets, row.code).pipe(
        // Sealed with a previous key: sealed again with the current one as it is used, so that key can be retired.
        Effect.tap((json) =>
          box.isCurrent(row.secrets)
            ? Effect.void
            : Effect.flatMap(box.seal(json, row.code), (sealed) => repo.resealed(row.code, row.secrets, sealed))
        ),
        Effect.flatMap((json) => Schema.decode(SecretsJson)(json).pipe(Effect.orDie)),
        Effect.map((secrets): OpenConnection => ({ row, secrets }))
      )

    /**
     * At start, secrets sealed with a previous key are sealed with the current one, so the previous key can be
     * retired once every instance has started with the new one. A value no key opens is left (and logged).
     */
    yield* Effect.forEach(
      yield* repo.allSecrets,
      (row) =>
        box.isCurrent(row.secrets) ? Effect.void : box.open(row.secrets, row.code).pipe(
          Effect.flatMap((json) => box.seal(json, row.code)),
          Effect.flatMap((sealed) => repo.resealed(row.code, row.secrets, sealed)),
          // No key at all: connections are refused anyway (see SecretBox).
          Effect.catchTag("SecretKeyMissing", () => Effect.void),
          Effect.catchAllCause((cause) =>
            Effect.logWarning("a connection's secrets could not be sealed with the current key", cause).pipe(
              Effect.annotateLogs({ connectionCode: row.code })
            )
          )
        ),
      { discard: true }
    )

    const requireAssistant = (assistantId: string) =>
      assistants.findById(assistantId).pipe(
        Effect.flatMap(
          Option.match({ onNone: () => Effect.fail(new Errors.AssistantNotFound()), onSome: Effect.succeed })
        )
      )

    /** The assistant's connection, or 404 (also when the code belongs to another assistant). */
    const requireConnection = (assistantId: string, code: string) =>
      repo.find(code).pipe(
        Effect.flatMap((row) =>
          Option.isSome(row) && row.value.assistantId === assistantId
            ? Effect.succeed(row.value)
            : Effect.fail(new Channels.ConnectionNotFound())
        )
      )

    /** Best effort: a bot whose webhook cannot be removed now only meets a 404 at the hook. */
    const dropWebhook = (connection: OpenConnection) =>
      connection.secrets._tag === "telegram"
        ? botApi.deleteWebhook(connection.secrets.botToken).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning("Telegram webhook not removed").pipe(
              Effect.annotateLogs({
                connectionCode: connection.row.code,
                status: error.status,
                reason: error.description
              })
            )
          )
        )
        : Effect.void

    const reload = (code: string) =>
      repo.find(code).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.die("connection vanished"), onSome: Effect.succeed }))
      )

    return {
      create: Effect.fn("Connections.create")(function*(assistantId: string, input: Channels.ConnectionCreate) {
        yield* requireAssistant(assistantId)
        const code = newId("con")
        if (input.driver === "telegram") {
          const hookSecret = newHookSecret()
          const secrets = yield* seal(code, { _tag: "telegram", botToken: input.botToken, hookSecret })
          const bot = yield* botApi.getMe(input.botToken).pipe(Effect.mapError(fromBotApi))
          yield* botApi.setWebhook(input.botToken, hookUrl("telegram", code), hookSecret).pipe(
            Effect.mapError(fromBotApi)
          )
          yield* repo.insert({
            code,
            assistantId,
            driver: "telegram",
            botUsername: bot.username ?? null,
            callbackUrl: null,
            secrets
          })
        } else {
          yield* CallbackAddress.checkCallbackUrl(input.callbackUrl, config.webhookAllowPrivate)
          const secrets = yield* seal(code, { _tag: "webhook", secret: input.secret })
          yield* repo.insert({
            code,
            assistantId,
            driver: "webhook",
            botUsername: null,
            callbackUrl: input.callbackUrl,
            secrets
          })
        }
        yield* Effect.logInfo("messenger connection created").pipe(
          Effect.annotateLogs({ assistantId, connectionCode: code, driver: input.driver })
        )
        return toResponse(yield* reload(code))
      }),

      list: Effect.fn("Connections.list")(function*(assistantId: string) {
        yield* requireAssistant(assistantId)
        const rows = yield* repo.listByAssistant(assistantId)
        return { list: rows.map(toResponse), count: rows.length }
      }),

      disable: Effect.fn("Connections.disable")(function*(assistantId: string, code: string) {
        const row = yield* requireConnection(assistantId, code)
        if (row.status !== "disabled") {
          yield* repo.setStatus(code, "disabled", null)
          yield* open(row).pipe(Effect.flatMap(dropWebhook), Effect.catchTag("SecretKeyMissing", () => Effect.void))
        }
        return toResponse(yield* reload(code))
      }),

      enable: Effect.fn("Connections.enable")(function*(assistantId: string, code: string) {
        const row = yield* requireConnection(assistantId, code)
        const { secrets } = yield* open(row)
        if (secrets._tag === "telegram") {
          const hookSecret = newHookSecret()
          const sealed = yield* seal(code, { ...secrets, hookSecret })
          yield* botApi.setWebhook(secrets.botToken, hookUrl("telegram", code), hookSecret).pipe(
            Effect.mapError(fromBotApi)
          )
          yield* repo.reactivate(code, sealed)
        } else {
          yield* repo.setStatus(code, "active", null)
        }
        return toResponse(yield* reload(code))
      }),

      remove: Effect.fn("Connections.remove")(function*(assistantId: string, code: string) {
        const row = yield* requireConnection(assistantId, code)
        yield* repo.remove(code)
        yield* open(row).pipe(Effect.flatMap(dropWebhook), Effect.catchTag("SecretKeyMissing", () => Effect.void))
      }),

      /** An active connection of `driver` with its secrets; none when unknown, of another driver, disabled or dead. */
      findActive: (driver: Channels.Driver, code: string) =>
        repo.find(code).pipe(
          Effect.flatMap((row) =>
            Option.isSome(row) && row.value.driver === driver && row.value.status === "active"
              ? Effect.map(open(row.value), Option.some)
              : Effect.succeed(Option.none<OpenConnection>())
          )
        ),

      /** The platform refused the connection's credentials for good: stop using it, say so once. */
      markDead: Effect.fn("Connections.markDead")(function*(code: string, reason: string) {
        yield* repo.setStatus(code, "dead", reason)
        yield* Effect.logError("messenger connection is dead; enable it again once its credentials work").pipe(
          Effect.annotateLogs({ connectionCode: code, reason })
        )
      })
    } as const
  }),
  dependencies: [ConnectionsRepo.Default, AssistantsRepo.Default, SecretBox.Default, BotApi.Default]
}) {}
