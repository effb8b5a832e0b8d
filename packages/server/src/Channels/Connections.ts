/**
 * Connections of assistants to messengers, for the operator: create (a
 * Telegram or Bale bot's webhook is registered at once, a WhatsApp number's
 * credentials checked), list, disable, enable, delete; and for the hook and
 * the worker: a connection with its secrets opened.
 */
import { Assistants, Channels, Errors, type WebSettings } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { AssistantsRepo } from "../Assistants/AssistantsRepo"
import { AppConfig } from "../Config"
import { newId } from "../Ids"
import * as Bale from "./Bale/Platform"
import type { BotPlatform } from "./BotPlatform"
import { type ConnectionRow, ConnectionsRepo, type Unanswered } from "./ConnectionsRepo"
import { SecretBox } from "./SecretBox"
import { BotApi, type BotApiError } from "./Telegram/BotApi"
import * as Telegram from "./Telegram/Platform"
import * as Settings from "./Web/Settings"
import { WebRepo } from "./Web/WebRepo"
import * as CallbackAddress from "./Webhook/CallbackAddress"
import { GraphApi, type GraphApiError } from "./WhatsApp/GraphApi"

/** What `secrets` holds once opened, per driver. */
export const Secrets = Schema.Union(
  Schema.TaggedStruct("telegram", { botToken: Schema.String, hookSecret: Schema.String }),
  Schema.TaggedStruct("webhook", { secret: Schema.String }),
  Schema.TaggedStruct("bale", { botToken: Schema.String, hookSecret: Schema.String }),
  Schema.TaggedStruct("whatsapp", { accessToken: Schema.String, appSecret: Schema.String, verifyToken: Schema.String }),
  Schema.TaggedStruct("web", { secret: Schema.String })
)
export type Secrets = typeof Secrets.Type
const SecretsJson = Schema.parseJson(Secrets)

/** A connection as the hook and the worker need it. */
export interface OpenConnection {
  readonly row: ConnectionRow
  readonly secrets: Secrets
}

/** Telegram's `secret_token`: 1 to 256 of `A-Z a-z 0-9 _ -` (and a safe URL path segment for Bale). */
const newHookSecret = () => randomBytes(32).toString("base64url")

/** Telegram keeps its own error codes; the other platforms share the messenger ones. */
const fromBotApi = (platform: BotPlatform) => (error: BotApiError) =>
  platform.name === "telegram"
    ? error.transient ? new Channels.TelegramUnavailable() : new Channels.TelegramRejected()
    : error.transient
    ? new Channels.MessengerUnavailable()
    : new Channels.MessengerRejected()

const fromGraphApi = (error: GraphApiError) =>
  error.transient ? new Channels.MessengerUnavailable() : new Channels.MessengerRejected()

const botPlatforms = { telegram: Telegram.platform, bale: Bale.platform } as const

export class Connections extends Effect.Service<Connections>()("Connections", {
  effect: Effect.gen(function*() {
    const repo = yield* ConnectionsRepo
    const assistants = yield* AssistantsRepo
    const box = yield* SecretBox
    const botApi = yield* BotApi
    const graph = yield* GraphApi
    const config = yield* AppConfig
    const webRepo = yield* WebRepo
    const publicUrl = Option.getOrElse(config.publicUrl, () => `http://localhost:${config.port}`).replace(/\/+$/, "")

    const hookUrl = (driver: Channels.Driver, code: string) =>
      driver === "web" ? `${publicUrl}/v1/web/${code}` : `${publicUrl}/hooks/${driver}/${code}`

    /** The URL registered with the platform: Bale's carries the secret in its path (it sends no secret header). */
    const registeredUrl = (platform: BotPlatform, code: string, hookSecret: string) =>
      platform.secretIn === "path" ? `${hookUrl(platform.name, code)}/${hookSecret}` : hookUrl(platform.name, code)

    /** Checks the token (`getMe`) and registers the webhook with a fresh secret; the bot's username. */
    const registerBot = (platform: BotPlatform, code: string, botToken: string, hookSecret: string) =>
      Effect.gen(function*() {
        const bot = yield* botApi.getMe(platform, botToken)
        yield* botApi.setWebhook(platform, botToken, registeredUrl(platform, code, hookSecret), hookSecret)
        return bot.username ?? null
      }).pipe(Effect.mapError(fromBotApi(platform)))

    /** A web connection's answer carries its settings and snippet; its secret only once, at creation. */
    const toResponse = (
      row: ConnectionRow,
      web?: WebSettings.WebSettings,
      connectionSecret?: string
    ): Channels.Connection => ({
      connectionCode: Channels.ConnectionCode.make(row.code),
      assistantId: Assistants.AssistantId.make(row.assistantId),
      driver: row.driver,
      hookUrl: hookUrl(row.driver, row.code),
      status: row.status,
      statusReason: row.statusReason,
      botUsername: row.botUsername,
      callbackUrl: row.callbackUrl,
      phoneNumberId: row.phoneNumberId,
      ...(web === undefined ? {} : { web, embedSnippet: Settings.embedSnippet(publicUrl, row.code) }),
      ...(connectionSecret === undefined ? {} : { connectionSecret }),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt
    })

    const withSettings = (rows: ReadonlyArray<ConnectionRow>) =>
      webRepo.settingsOf(rows.filter((row) => row.driver === "web").map((row) => row.code)).pipe(
        Effect.map((settings) => rows.map((row) => toResponse(row, settings.get(row.code))))
      )

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
      connection.secrets._tag === "telegram" || connection.secrets._tag === "bale"
        ? botApi.deleteWebhook(botPlatforms[connection.secrets._tag], connection.secrets.botToken).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning("bot webhook not removed").pipe(
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
        const common = {
          code,
          assistantId,
          driver: input.driver,
          botUsername: null,
          callbackUrl: null,
          phoneNumberId: null
        }
        switch (input.driver) {
          case "telegram":
          case "bale": {
            const hookSecret = newHookSecret()
            const secrets = yield* seal(code, { _tag: input.driver, botToken: input.botToken, hookSecret })
            const botUsername = yield* registerBot(botPlatforms[input.driver], code, input.botToken, hookSecret)
            yield* repo.insert({ ...common, botUsername, secrets })
            break
          }
          case "whatsapp": {
            const secrets = yield* seal(code, {
              _tag: "whatsapp",
              accessToken: input.accessToken,
              appSecret: input.appSecret,
              verifyToken: input.verifyToken
            })
            yield* graph.phoneNumber(input.accessToken, input.phoneNumberId).pipe(Effect.mapError(fromGraphApi))
            yield* repo.insert({ ...common, phoneNumberId: input.phoneNumberId, secrets })
            break
          }
          case "web": {
            const secret = randomBytes(32).toString("base64url")
            const settings = Settings.fromCreate(input)
            yield* repo.insert({ ...common, secrets: yield* seal(code, { _tag: "web", secret }) })
            yield* webRepo.save(code, settings)
            yield* Effect.logInfo("messenger connection created").pipe(
              Effect.annotateLogs({ assistantId, connectionCode: code, driver: input.driver })
            )
            return toResponse(yield* reload(code), settings, secret)
          }
          case "webhook": {
            yield* CallbackAddress.checkCallbackUrl(input.callbackUrl, config.webhookAllowPrivate)
            const secrets = yield* seal(code, { _tag: "webhook", secret: input.secret })
            yield* repo.insert({ ...common, callbackUrl: input.callbackUrl, secrets })
            break
          }
        }
        yield* Effect.logInfo("messenger connection created").pipe(
          Effect.annotateLogs({ assistantId, connectionCode: code, driver: input.driver })
        )
        return toResponse(yield* reload(code))
      }),

      list: Effect.fn("Connections.list")(function*(assistantId: string) {
        yield* requireAssistant(assistantId)
        const rows = yield* repo.listByAssistant(assistantId)
        return { list: yield* withSettings(rows), count: rows.length }
      }),

      disable: Effect.fn("Connections.disable")(function*(assistantId: string, code: string) {
        const row = yield* requireConnection(assistantId, code)
        if (row.status !== "disabled") {
          yield* repo.setStatus(code, "disabled", null)
          yield* open(row).pipe(Effect.flatMap(dropWebhook), Effect.catchTag("SecretKeyMissing", () => Effect.void))
        }
        return (yield* withSettings([yield* reload(code)]))[0] ?? toResponse(row)
      }),

      enable: Effect.fn("Connections.enable")(function*(assistantId: string, code: string) {
        const row = yield* requireConnection(assistantId, code)
        const { secrets } = yield* open(row)
        if (secrets._tag === "telegram" || secrets._tag === "bale") {
          const hookSecret = newHookSecret()
          const sealed = yield* seal(code, { ...secrets, hookSecret })
          yield* registerBot(botPlatforms[secrets._tag], code, secrets.botToken, hookSecret)
          yield* repo.reactivate(code, sealed)
        } else {
          if (secrets._tag === "whatsapp" && row.phoneNumberId !== null) {
            yield* graph.phoneNumber(secrets.accessToken, row.phoneNumberId).pipe(Effect.mapError(fromGraphApi))
          }
          yield* repo.setStatus(code, "active", null)
        }
        return (yield* withSettings([yield* reload(code)]))[0] ?? toResponse(row)
      }),

      /** The assistant's connection as the API shows it (404 when it is another assistant's). */
      describe: Effect.fn("Connections.describe")(function*(assistantId: string, code: string) {
        yield* requireAssistant(assistantId)
        const row = yield* requireConnection(assistantId, code)
        return (yield* withSettings([row]))[0] ?? toResponse(row)
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

      /** No reply could be sent to a message: kept for the operator, and the status reason names the latest. */
      noteUnanswered: Effect.fn("Connections.noteUnanswered")(function*(entry: Unanswered) {
        yield* repo.recordUnanswered(entry)
        yield* repo.setReason(
          entry.code,
          `No reply sent to the message of ${entry.sentAt.toISOString()}: ${entry.reason}`
        )
        yield* Effect.logWarning("messenger message not answered").pipe(
          Effect.annotateLogs({ connectionCode: entry.code, messageKey: entry.messageKey, reason: entry.reason })
        )
      }),

      /** The platform refused the connection's credentials for good: stop using it, say so once. */
      markDead: Effect.fn("Connections.markDead")(function*(code: string, reason: string) {
        yield* repo.setStatus(code, "dead", reason)
        yield* Effect.logError("messenger connection is dead; enable it again once its credentials work").pipe(
          Effect.annotateLogs({ connectionCode: code, reason })
        )
      })
    } as const
  }),
  dependencies: [
    ConnectionsRepo.Default,
    AssistantsRepo.Default,
    SecretBox.Default,
    BotApi.Default,
    GraphApi.Default,
    WebRepo.Default
  ]
}) {}
