/**
 * What one command invocation talks to: the Effect client aimed at the base
 * URL with the right credential and language, and whether to print JSON.
 * Flags after the subcommand win over flags before it, then the environment,
 * then the default. A missing credential fails here, before any request.
 */
import { I18n } from "@dastyar/domain"
import { type EffectClient, makeEffectClient } from "@dastyar/sdk"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import { defaultBaseUrl } from "./GlobalOptions"
import { checkPayload, type InvalidInput } from "./Input"
import { root } from "./Root"

export interface Session {
  readonly client: EffectClient
  /** The same server and credential as a plain HttpClient, for answers the client cannot decode (SSE). */
  readonly http: HttpClient.HttpClient
  readonly json: boolean
  /** The language chosen with `--lang`, for texts the CLI words itself from the domain's catalog. */
  readonly locale: I18n.Locale
  /** Checks a payload before it is sent, reporting invalid fields in the chosen language. */
  readonly checked: <A, I>(schema: Schema.Schema<A, I>, payload: A) => Effect.Effect<A, InvalidInput>
}

/** A problem with how the CLI was called that the command line parser cannot see (credential, base URL). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** The global option values as one command parsed them. */
interface CommonValues {
  readonly baseUrl: Option.Option<string>
  readonly lang: Option.Option<string>
  readonly json: boolean
}

interface Credential {
  readonly what: string
  readonly flag: string
  readonly env: string
}

const apiKey: Credential = { what: "API key", flag: "--api-key", env: "DASTYAR_API_KEY" }
const adminToken: Credential = { what: "operator token", flag: "--admin-token", env: "DASTYAR_ADMIN_TOKEN" }

/** The first flag given, else the environment variable; empty values count as unset. */
const firstGiven = <A>(flags: ReadonlyArray<Option.Option<A>>, env: Config.Config<A>, filled: (value: A) => boolean) =>
  Effect.map(Config.option(env), (fromEnv) => Option.filter(Option.firstSomeOf([...flags, fromEnv]), filled))

const filledText = (value: string) => value.length > 0
const filledSecret = (value: Redacted.Redacted) => Redacted.value(value).length > 0

/** The global option values given before the subcommand. */
type RootValues = Effect.Effect.Success<typeof root>

const open = (
  leaf: CommonValues,
  tokens: (global: RootValues) => ReadonlyArray<Option.Option<Redacted.Redacted>>,
  credential: Credential
) =>
  Effect.gen(function*() {
    const global = yield* root
    const token = yield* firstGiven(tokens(global), Config.redacted(credential.env), filledSecret)
    if (Option.isNone(token)) {
      return yield* new UsageError({
        message: `no ${credential.what}: pass ${credential.flag} or set ${credential.env}`
      })
    }
    const given = yield* firstGiven([leaf.baseUrl, global.baseUrl], Config.string("DASTYAR_BASE_URL"), filledText)
    const baseUrl = Option.getOrElse(given, () => defaultBaseUrl)
    // Without a scheme, `localhost:3000` would parse as a URL with scheme `localhost:`.
    if (!/^https?:\/\/[^/]/i.test(baseUrl)) {
      return yield* new UsageError({ message: `invalid base URL '${baseUrl}': expected e.g. ${defaultBaseUrl}` })
    }
    const language = Option.orElse(leaf.lang, () => global.lang)
    const locale = I18n.negotiate(Option.getOrUndefined(language))
    const client = yield* makeEffectClient({
      // The client appends absolute paths (`/v1/…`), so a trailing slash would double up.
      baseUrl: baseUrl.replace(/\/+$/, ""),
      token: Redacted.value(token.value),
      language: Option.getOrUndefined(language)
    })
    const http = (yield* HttpClient.HttpClient).pipe(HttpClient.mapRequest((request) => {
      const authorised = HttpClientRequest.bearerToken(
        HttpClientRequest.prependUrl(request, baseUrl.replace(/\/+$/, "")),
        Redacted.value(token.value)
      )
      return Option.match(language, {
        onNone: () => authorised,
        onSome: (lang) => HttpClientRequest.setHeader(authorised, "accept-language", lang)
      })
    }))
    const session: Session = {
      client,
      http,
      json: leaf.json || global.json,
      locale,
      checked: (schema, payload) => checkPayload(schema, payload, locale)
    }
    return session
  })

/** A session for the public API (`/v1`), authenticated with an API key. */
export const publicSession = (leaf: CommonValues & { readonly apiKey: Option.Option<Redacted.Redacted> }) =>
  open(leaf, (global) => [leaf.apiKey, global.apiKey], apiKey)

/** A session for the operator API (`/admin/v1`), authenticated with the operator token. */
export const adminSession = (leaf: CommonValues & { readonly adminToken: Option.Option<Redacted.Redacted> }) =>
  open(leaf, (global) => [leaf.adminToken, global.adminToken], adminToken)
