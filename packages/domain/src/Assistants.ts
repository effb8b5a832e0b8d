import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse } from "./Errors"
import { ModelKey, Reasoning } from "./Models"

/** The assistant code: an assistant's `id`, used as `:assistantCode` in every route. */
export const AssistantId = Schema.String.pipe(Schema.brand("AssistantId"))
export type AssistantId = typeof AssistantId.Type

export const AssistantStatus = Schema.Literal("provisioning", "active", "provisioning_failed", "deleting")
export type AssistantStatus = typeof AssistantStatus.Type

export const Personality = Constraint.oneOf("friendly", "professional", "playful", "technical", "formal", "custom")
export const ImageDetail = Constraint.oneOf("low", "high", "auto")
export const IdentityField = Constraint.oneOf("mobile", "userId", "email")

export const IdentitySettings = Schema.Struct({
  fields: Schema.Array(IdentityField),
  otp: Constraint.Boolean
}).annotations({ identifier: "IdentitySettings" })

export const PlanLimits = Schema.Struct({
  products: Schema.Int.annotations({ description: "Catalog cap per assistant" })
}).annotations({ identifier: "PlanLimits" })

export const Assistant = Schema.Struct({
  id: AssistantId,
  name: Schema.String,
  instruction: Schema.NullOr(Schema.String),
  model: ModelKey,
  reasoning: Reasoning,
  status: AssistantStatus,
  description: Schema.NullOr(Schema.String),
  personality: Schema.NullOr(Personality),
  language: Schema.NullOr(Schema.String),
  identitySettings: IdentitySettings,
  ragK: Schema.NullOr(Schema.Int),
  maxOutputTokens: Schema.NullOr(Schema.Int),
  imageDetail: Schema.NullOr(ImageDetail),
  operatorsCanViewCustomerFiles: Schema.Boolean,
  avatarUrl: Schema.NullOr(Schema.String),
  /** The spec leaves this open; we show it, as users of voice channels need to know. */
  acceptVoice: Schema.Boolean,
  productSearch: Schema.Boolean.annotations({ description: "Whether the product-search tool is on in chat" }),
  planLimits: Schema.NullOr(PlanLimits).annotations({ description: "Always null in the assistants list" }),
  createdAt: Schema.DateTimeUtc
}).annotations({
  identifier: "Assistant",
  examples: [{
    id: AssistantId.make("ast_7fc27f726e3a213c0d3dc633"),
    name: "Shop helper",
    instruction: "Answer questions about our products and shipping.",
    model: "dastyar-local",
    reasoning: "none",
    status: "active",
    description: null,
    personality: "friendly",
    language: "fa",
    identitySettings: { fields: ["mobile"], otp: false },
    ragK: null,
    maxOutputTokens: null,
    imageDetail: null,
    operatorsCanViewCustomerFiles: false,
    avatarUrl: null,
    acceptVoice: false,
    productSearch: true,
    planLimits: null,
    createdAt: DateTime.unsafeMake("2026-11-01T09:32:00Z")
  }]
})
export type Assistant = typeof Assistant.Type

/**
 * What a key holder may change of its own assistant: how it speaks, not what it costs (model and reasoning stay
 * with the operator, whose plan check they need). Absent fields keep their value; null clears.
 */
export const AssistantOwnerUpdate = Schema.Struct({
  name: Schema.optional(Constraint.text({ min: 1, max: 200 })),
  instruction: Schema.optional(Schema.NullOr(Constraint.text({ max: 20000 }))),
  description: Schema.optional(Schema.NullOr(Constraint.text({ max: 2000 }))),
  personality: Schema.optional(Schema.NullOr(Personality)),
  language: Schema.optional(Schema.NullOr(Constraint.text({ min: 2, max: 35 })))
}).annotations({
  identifier: "AssistantOwnerUpdate",
  parseOptions: { errors: "all" },
  examples: [{ name: "Shop helper", instruction: "Answer in short sentences.", language: "fa" }]
})
export type AssistantOwnerUpdate = typeof AssistantOwnerUpdate.Type

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)

export const AssistantListResponse = success(ListOf(Assistant), { identifier: "AssistantListResponse" })

export class AssistantsApi extends HttpApiGroup.make("assistants")
  .annotate(OpenApi.Title, "Assistants")
  .add(
    HttpApiEndpoint.get("list", "/assistants")
      .annotate(OpenApi.Summary, "List the account's assistants")
      .addSuccess(AssistantListResponse)
      .annotate(OpenApi.Description, "All assistants of the key's account; no pagination.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/assistants/${assistantPath}`
      .annotate(OpenApi.Summary, "Change the assistant's name, instruction, description, personality or language")
      .setPayload(AssistantOwnerUpdate)
      .addSuccess(success(Assistant, { identifier: "AssistantUpdatedResponse" }))
      .addError(AssistantNotFoundResponse)
      .annotate(
        OpenApi.Description,
        "Fields left out keep their value; null clears. The model and reasoning are the operator's (`/admin/v1`)."
      )
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "The key's account's assistants.")
{}
