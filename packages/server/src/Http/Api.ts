/** The API's handlers and middlewares, assembled into one `HttpApi.Api` layer. */
import { DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder, type HttpApiScalar, HttpRouter } from "@effect/platform"
import * as Layer from "effect/Layer"
import { CostLedger } from "../Accounts/CostLedger"
import { AdminHttpLive } from "../Admin/Http"
import { AdminListsHttpLive } from "../Admin/ListsHttp"
import { AssistantsHttpLive } from "../Assistants/Http"
import { ChannelsHttpLive } from "../Channels/Http"
import { WebChannelHttpLive } from "../Channels/Web/Http"
import { ChatHttpLive } from "../Chat/Http"
import { AdminContentHttpLive, ContentHttpLive, ContentRateLimitLive } from "../Content/Http"
import { AdminConversationsHttpLive, ConversationsHttpLive } from "../Conversations/Http"
import { CuratedHttpLive } from "../Curated/Http"
import { RecentWrites } from "../Database/RecentWrites"
import { DocumentsHttpLive } from "../Documents/Http"
import { ModelsHttpLive } from "../Models/Http"
import { layerLimiter, RateLimit } from "../Platform/RateLimit"
import { requestMiddleware } from "../Platform/RequestLog"
import { ProductsHttpLive } from "../Products/Http"
import { SynonymsHttpLive } from "../Products/SynonymsHttp"
import { SystemHttpLive } from "../System/Http"
import * as Admission from "./Admission"
import { AdminAuthLive, ApiKeyAuthLive } from "./Auth"
import * as Compression from "./Compression"
import * as Console from "./Console"
import * as Docs from "./Docs"
import * as ErrorMapping from "./ErrorMapping"

const groups = Layer.mergeAll(
  AssistantsHttpLive,
  ModelsHttpLive,
  AdminHttpLive,
  SystemHttpLive,
  ProductsHttpLive,
  SynonymsHttpLive,
  DocumentsHttpLive,
  ChatHttpLive,
  ContentHttpLive,
  AdminContentHttpLive,
  ChannelsHttpLive,
  WebChannelHttpLive,
  ConversationsHttpLive,
  AdminConversationsHttpLive,
  CuratedHttpLive,
  AdminListsHttpLive.pipe(Layer.provide(CostLedger.Default))
)

/** One limiter for the middlewares and the messenger hook (which counts per connection). */
const RateLimitLive = RateLimit.Default.pipe(Layer.provide(layerLimiter))

const middlewares = Layer.mergeAll(ApiKeyAuthLive, AdminAuthLive, ContentRateLimitLive).pipe(
  Layer.provide(Layer.merge(RateLimitLive, RecentWrites.Default))
)

const api = HttpApiBuilder.api(DastyarApi).pipe(
  Layer.provide(groups.pipe(Layer.provide(RateLimitLive))),
  Layer.provide(middlewares)
)

/**
 * The reference's settings: each operation's own bearer scheme is selected in the request panel
 * (API key on `/v1`, operator token on `/admin/v1`), so only the token has to be pasted; and no fonts
 * from Scalar's CDN (the page's Content-Security-Policy allows none: it uses the system's fonts).
 * `authentication` and `withDefaultFonts` are Scalar options the platform's `ScalarConfig` type does not list.
 */
const scalar: HttpApiScalar.ScalarConfig & {
  readonly authentication: { readonly preferredSecurityScheme: ReadonlyArray<string> }
  readonly withDefaultFonts: boolean
} = {
  authentication: { preferredSecurityScheme: ["bearer", "adminToken"] },
  withDefaultFonts: false
}

/**
 * The HTTP app: request log and locale outermost, then error mapping, then the
 * API. Needs an `HttpServer` (a real socket, or the test server).
 */
export const layer = HttpApiBuilder.serve((app) => requestMiddleware(Compression.middleware(app))).pipe(
  Layer.provide(ErrorMapping.layer),
  // The OpenAPI document and an interactive reference (Scalar, served inline: no CDN).
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/v1/openapi.json" })),
  Layer.provide(Docs.layer({ path: "/docs", scalar })),
  Layer.provide(Console.layer),
  Layer.provide(api),
  Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: Admission.maxPathParamLength }))
)
