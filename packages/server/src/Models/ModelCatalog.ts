/**
 * Companies, models and plans: built-in defaults, or the JSON file named by
 * `DASTYAR_CONFIG`, validated at start (a bad file stops the start with the
 * bad field named). Also answers which models a plan may use and which can run now.
 */
import { I18n, Models } from "@dastyar/domain"
import * as Arr from "effect/Array"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import { AppConfig } from "../Config"

/** Where a model runs. Upstream names, URLs and prices never leave the server. */
const ProviderBinding = Schema.Union(
  Schema.TaggedStruct("local", {}),
  Schema.TaggedStruct("openai-compatible", {
    /** Up to and including the version segment: `https://api.openai.com/v1`, `http://localhost:11434/v1`… */
    baseUrl: Schema.String,
    /** Name of the environment variable holding the provider's key. */
    apiKeyEnv: Schema.String,
    upstreamModel: Schema.String,
    /** Per request (each retry has its own); a streamed answer may take this long between chunks. */
    timeoutMs: Schema.optionalWith(Schema.Int.pipe(Schema.positive()), { default: () => 60_000 }),
    /** Retries after a 429, 5xx, timeout or network failure, before the offline fallback answers. */
    maxRetries: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 5)), { default: () => 2 }),
    /** OpenAI's reasoning models want `max_completion_tokens`; most other servers read `max_tokens`. */
    maxTokensParameter: Schema.optionalWith(Schema.Literal("max_tokens", "max_completion_tokens"), {
      default: () => "max_tokens"
    }),
    /** Whether the upstream model reads images (`image_url` parts); without it images are not sent. */
    vision: Schema.optionalWith(Schema.Boolean, { default: () => false })
  })
)
export type ProviderBinding = typeof ProviderBinding.Type

const ModelEntry = Schema.Struct({
  key: Schema.NonEmptyTrimmedString,
  name: Schema.NonEmptyTrimmedString,
  company: Schema.NonEmptyTrimmedString,
  /** One text for every language, or one per language (`{"en": …, "fa": …}`; English when the caller's is missing). */
  description: Schema.optionalWith(
    Schema.NullOr(Schema.Union(Schema.String, Schema.Record({ key: Schema.String, value: Schema.String }))),
    { default: () => null }
  ),
  supportedReasoning: Schema.optionalWith(Schema.NullOr(Schema.NonEmptyArray(Models.Reasoning)), {
    default: () => null
  }),
  provider: Schema.optional(ProviderBinding),
  comingSoon: Schema.optionalWith(Schema.Boolean, { default: () => false })
})

const PlanEntry = Schema.Struct({
  key: Schema.NonEmptyTrimmedString,
  /** Model keys the plan includes, or "*" for all. */
  models: Schema.Union(Schema.Literal("*"), Schema.Array(Schema.String)),
  productLimit: Schema.optionalWith(Schema.Int.pipe(Schema.positive()), { default: () => 10_000 }),
  /** Chat tokens (prompt + completion + embedding) per account per calendar month (UTC); null: no cap. */
  monthlyTokens: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.positive())), { default: () => null })
})

export const CatalogFile = Schema.Struct({
  companies: Schema.NonEmptyArray(Schema.Struct({ slug: Schema.NonEmptyTrimmedString, title: Schema.String })),
  models: Schema.NonEmptyArray(ModelEntry),
  plans: Schema.NonEmptyArray(PlanEntry),
  defaultPlan: Schema.String,
  defaultModel: Schema.String
}).pipe(
  Schema.filter((file) => {
    const issues: Array<Schema.FilterIssue> = []
    const companies = new Set(file.companies.map((c) => c.slug))
    const models = new Set(file.models.map((m) => m.key))
    file.models.forEach((model, i) => {
      if (!companies.has(model.company)) {
        issues.push({ path: ["models", i, "company"], message: `unknown company "${model.company}"` })
      }
      if (!model.comingSoon && model.provider === undefined) {
        issues.push({ path: ["models", i, "provider"], message: "is required unless comingSoon is true" })
      }
    })
    file.plans.forEach((plan, i) => {
      if (plan.models !== "*") {
        plan.models.forEach((key, j) => {
          if (!models.has(key)) issues.push({ path: ["plans", i, "models", j], message: `unknown model "${key}"` })
        })
      }
    })
    if (!file.plans.some((p) => p.key === file.defaultPlan)) {
      issues.push({ path: ["defaultPlan"], message: `unknown plan "${file.defaultPlan}"` })
    }
    const defaultModel = file.models.find((m) => m.key === file.defaultModel)
    if (defaultModel === undefined || defaultModel.comingSoon) {
      issues.push({ path: ["defaultModel"], message: `must name a model that is not comingSoon` })
    }
    return issues
  })
)
export type CatalogFile = typeof CatalogFile.Type
type ModelEntry = typeof ModelEntry.Type
type PlanEntry = typeof PlanEntry.Type

/** Built in: one always-available local model, one OpenAI model that runs once `OPENAI_API_KEY` is set. */
export const builtInCatalog: typeof CatalogFile.Encoded = {
  companies: [
    { slug: "dastyar", title: "Dastyar" },
    { slug: "openai", title: "OpenAI" }
  ],
  models: [
    {
      key: "dastyar-local",
      name: "Dastyar Local",
      company: "dastyar",
      description: {
        en: "Built-in offline model: answers from your documents and catalog, no provider needed.",
        fa: "مدل آفلاین داخلی: از اسناد و کاتالوگ شما پاسخ می‌دهد و به سرویس‌دهنده‌ای نیاز ندارد."
      },
      supportedReasoning: ["none"],
      provider: { _tag: "local" }
    },
    {
      key: "gpt-4o-mini",
      name: "GPT-4o mini",
      company: "openai",
      description: { en: "Fast general model.", fa: "مدلی عمومی و سریع." },
      supportedReasoning: ["none"],
      provider: {
        _tag: "openai-compatible",
        baseUrl: "https://api.openai.com/v1",
        apiKeyEnv: "OPENAI_API_KEY",
        upstreamModel: "gpt-4o-mini",
        vision: true
      }
    },
    {
      key: "o4-mini",
      name: "o4-mini",
      company: "openai",
      description: { en: "Reasoning model.", fa: "مدلی با توان استدلال." },
      supportedReasoning: ["low", "medium", "high"],
      provider: {
        _tag: "openai-compatible",
        baseUrl: "https://api.openai.com/v1",
        apiKeyEnv: "OPENAI_API_KEY",
        upstreamModel: "o4-mini",
        maxTokensParameter: "max_completion_tokens",
        vision: true
      }
    }
  ],
  plans: [
    { key: "free", models: ["dastyar-local", "gpt-4o-mini"], productLimit: 10_000 },
    { key: "pro", models: "*", productLimit: 100_000 }
  ],
  defaultPlan: "free",
  defaultModel: "dastyar-local"
}

export class CatalogConfigError extends Data.TaggedError("CatalogConfigError")<{ readonly message: string }> {}

const decodeCatalog = (input: unknown, source: string) =>
  Schema.decodeUnknown(CatalogFile, { errors: "all", onExcessProperty: "error" })(input).pipe(
    Effect.mapError((error) =>
      new CatalogConfigError({
        message: `Invalid ${source}:\n${
          // An optional field's union also reports "Expected undefined": keep the first issue per field.
          Arr.dedupeWith(ParseResult.ArrayFormatter.formatErrorSync(error), (a, b) =>
            a.path.join(".") === b.path.join("."))
            .map((issue) =>
              `  ${issue.path.join(".") || "(root)"}: ${issue.message}`
            )
            .join("\n")}`
      })
    )
  )

const readCatalogFile = (file: string) =>
  Effect.try({
    try: (): unknown => JSON.parse(fs.readFileSync(file, "utf8")),
    catch: (cause) => new CatalogConfigError({ message: `Cannot read DASTYAR_CONFIG ${file}: ${String(cause)}` })
  })

/** Is a provider's credential configured? Read through Config so tests can set it. */
const credentialSet = (envName: string) =>
  Config.option(Config.nonEmptyString(envName)).pipe(Effect.map(Option.isSome), Effect.orElseSucceed(() => false))

export class ModelCatalog extends Effect.Service<ModelCatalog>()("ModelCatalog", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const file = yield* Option.match(config.configFile, {
      onNone: () => decodeCatalog(builtInCatalog, "built-in catalog"),
      onSome: (path) => Effect.flatMap(readCatalogFile(path), (json) => decodeCatalog(json, `DASTYAR_CONFIG (${path})`))
    })
    const availability = new Map<string, boolean>()
    for (const model of file.models) {
      const provider = model.provider
      availability.set(
        model.key,
        model.comingSoon || provider === undefined
          ? false
          : provider._tag === "local"
          ? true
          : yield* credentialSet(provider.apiKeyEnv)
      )
    }
    const companyOrder = new Map(file.companies.map((c, i) => [c.slug, i]))
    const companies = new Map(file.companies.map((c) => [c.slug, c]))
    // Grouped by company in the companies' order, models in file order within each.
    const ordered = Arr.sortWith(
      file.models.map((model, index) => ({ model, index })),
      ({ model, index }) => (companyOrder.get(model.company) ?? 0) * 1_000_000 + index,
      (a, b) => (a < b ? -1 : a > b ? 1 : 0)
    ).map(({ model }) => model)

    const planOf = (key: string): Option.Option<PlanEntry> => Option.fromNullable(file.plans.find((p) => p.key === key))
    const isAllowed = (plan: PlanEntry, modelKey: string) => plan.models === "*" || plan.models.includes(modelKey)
    const isAvailable = (modelKey: string) => availability.get(modelKey) ?? false
    const findModel = (key: string): Option.Option<ModelEntry> =>
      Option.fromNullable(file.models.find((m) => m.key === key))

    /** The public view of every model for an account on `planKey`, descriptions in `locale`. */
    const listFor = (planKey: string, locale: I18n.Locale = I18n.defaultLocale): ReadonlyArray<Models.Model> => {
      const plan = planOf(planKey)
      return ordered.map((model) => {
        const available = isAvailable(model.key)
        const allowed = Option.exists(plan, (p) => isAllowed(p, model.key))
        const company = companies.get(model.company) ?? { slug: model.company, title: model.company }
        return {
          key: model.key,
          name: model.name,
          company: { slug: company.slug, title: company.title },
          description: typeof model.description === "object" && model.description !== null
            ? model.description[locale] ?? model.description[I18n.defaultLocale] ?? null
            : model.description,
          supportedReasoning: model.supportedReasoning,
          available,
          allowed,
          usable: available && allowed
        }
      })
    }

    return {
      defaultPlan: file.defaultPlan,
      defaultModel: file.defaultModel,
      /** The first model bound to the built-in offline model (chat's fallback reports it), if any. */
      localModelKey: Option.fromNullable(file.models.find((model) => model.provider?._tag === "local")?.key),
      planOf,
      findModel,
      listFor,
      isAvailable,
      /** A model an account on this plan may select for an assistant. */
      isUsable: (planKey: string, modelKey: string) =>
        isAvailable(modelKey) && Option.exists(planOf(planKey), (plan) => isAllowed(plan, modelKey)),
      productLimit: (planKey: string) =>
        Option.match(planOf(planKey), { onNone: () => 0, onSome: (p) => p.productLimit }),
      /** The plan's monthly chat token allowance; null when it has none. */
      monthlyTokens: (planKey: string) =>
        Option.match(planOf(planKey), { onNone: () => null, onSome: (p) => p.monthlyTokens })
    } as const
  }),
  dependencies: [AppConfig.Default]
}) {}
