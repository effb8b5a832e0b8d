/** The widget's settings per web connection, and forgetting a visitor's current conversation. */
import { WebSettings } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const SettingsRow = Schema.Struct({
  connectionCode: Schema.String,
  settings: WebSettings.WebSettings
})

export class WebRepo extends Effect.Service<WebRepo>()("WebRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const settingsOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: SettingsRow,
      execute: (codes) =>
        sql`SELECT connection_code, settings FROM web_connections WHERE connection_code IN ${sql.in(codes)}`
    })

    return {
      /** Settings of these connections, by code (web connections only). */
      settingsOf: (codes: ReadonlyArray<string>) =>
        codes.length === 0
          ? Effect.succeed(new Map<string, WebSettings.WebSettings>())
          : settingsOf(codes).pipe(
            Effect.map((rows) => new Map(rows.map((row) => [row.connectionCode, row.settings]))),
            Effect.orDie
          ),

      save: (code: string, settings: WebSettings.WebSettings) =>
        sql`
          INSERT INTO web_connections (connection_code, settings) VALUES (${code}, ${JSON.stringify(settings)})
          ON CONFLICT (connection_code) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /** The visitor's next message starts a new conversation; the old one stays stored. */
      forgetConversation: (code: string, chatKey: string) =>
        sql`DELETE FROM channel_conversations WHERE connection_code = ${code} AND chat_key = ${chatKey}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    } as const
  })
}) {}
