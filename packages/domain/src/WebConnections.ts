/**
 * The shop owner's own website-widget connections, with the account's API
 * key: create, list, change, delete, and a preview token for the console. Only
 * web connections: messenger connections (Telegram, Bale, WhatsApp, webhooks)
 * stay the operator's (`AdminConnectionsApi`).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Channels from "./Channels"
import { ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse } from "./Errors"
import { Preview, PreviewRequest } from "./Web"
import { WebSettingsCreate, WebSettingsUpdate } from "./WebSettings"

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const connectionPath = HttpApiSchema.param("connectionCode", Channels.ConnectionCode)

export class WebConnectionsApi extends HttpApiGroup.make("webConnections")
  .annotate(OpenApi.Title, "Website widget connections")
  .add(
    HttpApiEndpoint.post("create")`/assistants/${assistantPath}/web-connections`
      .annotate(OpenApi.Summary, "Put the assistant on the shop's website")
      .annotate(
        OpenApi.Description,
        "A web connection for the listed sites. The answer carries `embedSnippet` (the line to paste into the " +
          "site's pages) and, in this answer only, `connectionSecret` (for signed-in customers)."
      )
      .setPayload(WebSettingsCreate)
      .addSuccess(success(Channels.Connection, { identifier: "WebConnectionCreatedResponse", status: 201 }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.SecretKeyMissingResponse)
  )
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/web-connections`
      .annotate(OpenApi.Summary, "The assistant's web connections")
      .addSuccess(success(ListOf(Channels.Connection), { identifier: "WebConnectionListResponse" }))
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.patch("update")`/assistants/${assistantPath}/web-connections/${connectionPath}`
      .annotate(OpenApi.Summary, "Change a web connection's settings")
      .setPayload(WebSettingsUpdate)
      .addSuccess(success(Channels.Connection, { identifier: "OwnWebConnectionUpdatedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/web-connections/${connectionPath}`
      .annotate(OpenApi.Summary, "Delete a web connection")
      .annotate(OpenApi.Description, "Pages with its snippet show that the chat is not available.")
      .addSuccess(success(Schema.Null, { identifier: "WebConnectionDeletedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("preview")`/assistants/${assistantPath}/web-connections/${connectionPath}/preview`
      .annotate(OpenApi.Summary, "A short-lived preview token for the console")
      .annotate(
        OpenApi.Description,
        "Lets `origin` (the console's own) use the widget for 15 minutes without adding it to `allowedOrigins`."
      )
      .setPayload(PreviewRequest)
      .addSuccess(success(Preview, { identifier: "OwnWebPreviewResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(
    OpenApi.Description,
    "The shop owner's website-widget connections, with the account's API key. Another account's assistant or " +
      "connection, or a messenger connection, is 404."
  )
{}
