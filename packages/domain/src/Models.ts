import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { ApiKeyAuth } from "./Auth"
import { ListOf, success } from "./Envelope"

/** Reasoning levels, lowest first (the order chat relies on to fit a level a model lacks). */
export const reasoningLevels = ["none", "low", "medium", "high"] as const
export const Reasoning = Schema.Literal(...reasoningLevels)
export type Reasoning = typeof Reasoning.Type

export const ModelKey = Schema.String.annotations({ description: "A model `key` from the models list" })

export const Company = Schema.Struct({ slug: Schema.String, title: Schema.String }).annotations({
  identifier: "Company"
})

export const Model = Schema.Struct({
  key: ModelKey,
  name: Schema.String,
  company: Company,
  description: Schema.NullOr(Schema.String),
  supportedReasoning: Schema.NullOr(Schema.Array(Reasoning)).annotations({
    description: "Accepted reasoning levels; null means all"
  }),
  available: Schema.Boolean.annotations({ description: "The chat service can run the model now" }),
  allowed: Schema.Boolean.annotations({ description: "The caller's plan includes the model" }),
  usable: Schema.Boolean.annotations({ description: "available && allowed" })
}).annotations({
  identifier: "Model",
  examples: [{
    key: "dastyar-local",
    name: "Dastyar Local",
    company: { slug: "dastyar", title: "Dastyar" },
    description: "Built-in offline model.",
    supportedReasoning: ["none"],
    available: true,
    allowed: true,
    usable: true
  }]
})
export type Model = typeof Model.Type

export class ModelsApi extends HttpApiGroup.make("models")
  .annotate(OpenApi.Title, "Language models")
  .add(
    HttpApiEndpoint.get("list", "/models")
      .annotate(OpenApi.Summary, "List models")
      .addSuccess(success(ListOf(Model), { identifier: "ModelListResponse" }))
      .annotate(OpenApi.Description, "Models grouped by company, in display order. Cacheable for 60 s (private).")
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "Models an assistant can use, with availability for the caller's plan.")
{}
