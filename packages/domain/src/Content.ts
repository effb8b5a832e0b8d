/**
 * Site content: articles of the blog, the guides and the changelog.
 *
 * Public routes (`/v1/content/…`) need no API key: they are limited per client
 * IP and cacheable for 60 seconds (`ETag`, 304 on `If-None-Match`), and they
 * only ever show published articles whose publish time has come. Operators
 * write articles through `/admin/v1/content/…` (see `Admin.ts`).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "@effect/platform"
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { TooManyRequestsResponse } from "./Errors"
import { token } from "./i18n"
import { MaxBodyBytes } from "./Limits"

export const ContentType = Constraint.oneOf("blog", "guides", "changelog")
export type ContentType = typeof ContentType.Type
export const contentTypes: ReadonlyArray<ContentType> = ["blog", "guides", "changelog"]

/** Lowercase letters (any script), digits and single hyphens: `getting-started`, `راهنمای-خرید`. */
export const Slug = Constraint.text({ min: 1, max: 200 }).pipe(
  Schema.pattern(/^[\p{Ll}\p{Lo}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{N}]+)*$/u, { message: () => token("constraint.slug") })
)

/** A BCP 47 language tag such as `en`, `fa` or `pt-BR`. */
export const Language = Constraint.text({ max: 35 }).pipe(
  Schema.pattern(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, { message: () => token("constraint.language") })
)

export const ArticleStatus = Constraint.oneOf("draft", "published")
export type ArticleStatus = typeof ArticleStatus.Type

const HttpUrl = Constraint.text({ max: 2048 }).pipe(
  Schema.pattern(/^https?:\/\/\S+$/i, { message: () => token("constraint.url") })
)

const Tag = Constraint.text({ min: 1, max: 50 })

/** What every view of an article shows. */
const summaryFields = {
  type: ContentType,
  slug: Schema.String,
  title: Schema.String,
  summary: Schema.NullOr(Schema.String),
  category: Schema.NullOr(Schema.String),
  language: Schema.String,
  tags: Schema.Array(Schema.String),
  coverImageUrl: Schema.NullOr(Schema.String),
  publishedAt: Schema.NullOr(Schema.DateTimeUtc),
  updatedAt: Schema.DateTimeUtc
}

const bodyFields = {
  markdown: Schema.String.annotations({ description: "The article as written (Markdown)" }),
  html: Schema.String.annotations({
    description: "The Markdown rendered to HTML and sanitised: no scripts, event handlers or `javascript:` links"
  })
}

const example = {
  type: "guides" as const,
  slug: "getting-started",
  title: "Getting started",
  summary: "Create an assistant and ask it a first question.",
  category: "Basics",
  language: "en",
  tags: ["setup"],
  coverImageUrl: "https://cdn.example.com/covers/getting-started.png",
  publishedAt: DateTime.unsafeMake("2026-11-02T08:00:00Z"),
  updatedAt: DateTime.unsafeMake("2026-11-02T08:00:00Z")
}

/** An element of the article list: everything but the body. */
export const ArticleSummary = Schema.Struct(summaryFields).annotations({
  identifier: "ArticleSummary",
  description: "A published article without its body; fetch it by `slug` for `markdown` and `html`",
  examples: [example]
})
export type ArticleSummary = typeof ArticleSummary.Type

export const Article = Schema.Struct({ ...summaryFields, ...bodyFields }).annotations({
  identifier: "Article",
  examples: [{
    ...example,
    markdown: "# Getting started\n\nCreate an assistant…",
    html: "<h1>Getting started</h1>\n<p>Create an assistant…</p>\n"
  }]
})
export type Article = typeof Article.Type

export const Category = Schema.Struct({
  name: Schema.String,
  articles: Schema.Int.annotations({ description: "Published articles in the category" })
}).annotations({ identifier: "ContentCategory", examples: [{ name: "Basics", articles: 4 }] })
export type Category = typeof Category.Type

export const SlugEntry = Schema.Struct({
  type: ContentType,
  slug: Schema.String,
  language: Schema.String,
  updatedAt: Schema.DateTimeUtc
}).annotations({
  identifier: "ContentSlug",
  examples: [{ type: "blog", slug: "hello", language: "en", updatedAt: DateTime.unsafeMake("2026-11-02T08:00:00Z") }]
})
export type SlugEntry = typeof SlugEntry.Type

const intParam = (min: number, max: number) =>
  Schema.NumberFromString.annotations({ message: () => token("constraint.type.integer") }).pipe(
    Schema.compose(Constraint.intBetween(min, max))
  )

export const ArticleListQuery = Schema.Struct({
  category: Schema.optional(Constraint.text({ min: 1, max: 100 })),
  language: Schema.optional(Language),
  limit: Schema.optional(intParam(1, 100)),
  offset: Schema.optional(intParam(0, 100000))
})
export type ArticleListQuery = typeof ArticleListQuery.Type

export const CategoryListQuery = Schema.Struct({ language: Schema.optional(Language) })

/** A page of articles; `count` is the number of all matching articles, so pages can be numbered. */
export const ArticlePage = ListOf(ArticleSummary).annotations({ identifier: "ArticlePage" })

export class ArticleNotFound extends Schema.TaggedError<ArticleNotFound>()("ArticleNotFound", errorFields) {}
export const ArticleNotFoundResponse = failure(ArticleNotFound, { status: 404, code: "content.not_found" })

/**
 * The public content routes' limit: requests per minute per client IP, one
 * count for all of them; the rate-limit headers on every response that got past it.
 */
export class ContentRateLimit extends HttpApiMiddleware.Tag<ContentRateLimit>()("ContentRateLimit", {
  failure: TooManyRequestsResponse
}) {}

export const typePath = HttpApiSchema.param("type", ContentType)
export const slugPath = HttpApiSchema.param("slug", Schema.String)

const cacheable = "Cacheable for 60 s (`Cache-Control: public, max-age=60`, `ETag`; 304 on `If-None-Match`)."

export class ContentApi extends HttpApiGroup.make("content")
  .annotate(OpenApi.Title, "Site content")
  .add(
    HttpApiEndpoint.get("slugs", "/content/slugs")
      .annotate(OpenApi.Summary, "List every published slug")
      .addSuccess(success(ListOf(SlugEntry), { identifier: "ContentSlugListResponse" }))
      .annotate(
        OpenApi.Description,
        `Every published article of every type with its language and last update, newest first (for sitemaps). ${cacheable}`
      )
  )
  .add(
    HttpApiEndpoint.get("list")`/content/${typePath}/articles`
      .annotate(OpenApi.Summary, "List published articles")
      .setUrlParams(ArticleListQuery)
      .addSuccess(success(ArticlePage, { identifier: "ArticlePageResponse" }))
      .annotate(
        OpenApi.Description,
        "Published articles of the type, newest first, without bodies. Filters: `category` (exact), `language`. " +
          "Pagination: `limit` 1 to 100 (default 20) and `offset` (default 0); `count` is the number of all " +
          `matching articles, not the length of the page. ${cacheable}`
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/content/${typePath}/articles/${slugPath}`
      .annotate(OpenApi.Summary, "Get a published article")
      .addSuccess(success(Article, { identifier: "ArticleResponse" }))
      .addError(ArticleNotFoundResponse)
      .annotate(
        OpenApi.Description,
        `The article with its Markdown and the sanitised HTML rendered from it. Drafts and articles scheduled for later are 404. ${cacheable}`
      )
  )
  .add(
    HttpApiEndpoint.get("categories")`/content/${typePath}/categories`
      .annotate(OpenApi.Summary, "List categories")
      .setUrlParams(CategoryListQuery)
      .addSuccess(success(ListOf(Category), { identifier: "ContentCategoryListResponse" }))
      .annotate(
        OpenApi.Description,
        `Categories of the type's published articles (optionally of one \`language\`) with their article counts, by name. ${cacheable}`
      )
  )
  .middleware(ContentRateLimit)
  // No key, and no route here takes a body: anything sent is refused past a few bytes.
  .annotate(MaxBodyBytes, 1024)
  .prefix("/v1")
  .annotate(
    OpenApi.Description,
    "Published site articles (blog, guides, changelog). No API key; limited per client IP (1,200 requests per minute by default)."
  )
{}

// ---- operator side (routes in `Admin.ts`) ----

/** PUT body of an article: full replacement. */
export const ArticleWrite = Schema.Struct({
  title: Constraint.text({ min: 1, max: 300 }),
  summary: Schema.optional(Schema.NullOr(Constraint.text({ max: 2000 }))),
  markdown: Constraint.text({ min: 1, max: 500000 }),
  category: Schema.optional(Schema.NullOr(Constraint.text({ min: 1, max: 100 }))),
  language: Language,
  tags: Schema.optional(Constraint.arrayOf(Tag, { max: 20 })),
  coverImageUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  status: ArticleStatus,
  publishedAt: Schema.optional(Schema.NullOr(Constraint.dateTimeBetween(1, 9999)))
}).annotations({
  identifier: "ArticleWrite",
  parseOptions: { errors: "all" },
  description: "A published article appears publicly once `publishedAt` has come. Without `publishedAt`, " +
    "publishing keeps the earlier publish time, or sets it to now.",
  examples: [{
    title: "Getting started",
    summary: "Create an assistant and ask it a first question.",
    markdown: "# Getting started\n\nCreate an assistant…",
    category: "Basics",
    language: "en",
    tags: ["setup"],
    status: "published"
  }]
})
export type ArticleWrite = typeof ArticleWrite.Type

const adminFields = {
  ...summaryFields,
  status: ArticleStatus,
  createdAt: Schema.DateTimeUtc
}

export const AdminArticleSummary = Schema.Struct(adminFields).annotations({ identifier: "AdminArticleSummary" })
export type AdminArticleSummary = typeof AdminArticleSummary.Type

export const AdminArticle = Schema.Struct({ ...adminFields, ...bodyFields }).annotations({ identifier: "AdminArticle" })
export type AdminArticle = typeof AdminArticle.Type

export const WriteOutcome = Schema.Literal("created", "updated", "unchanged")
export type WriteOutcome = typeof WriteOutcome.Type

export const ArticleWritten = Schema.Struct({
  outcome: WriteOutcome.annotations({ description: "`unchanged` when the stored article already had these fields" }),
  article: AdminArticle
}).annotations({ identifier: "ArticleWritten" })
export type ArticleWritten = typeof ArticleWritten.Type

export const AdminArticleListQuery = Schema.Struct({
  type: Schema.optional(ContentType),
  status: Schema.optional(ArticleStatus),
  language: Schema.optional(Language),
  limit: Schema.optional(intParam(1, 500)),
  offset: Schema.optional(intParam(0, 100000))
})
export type AdminArticleListQuery = typeof AdminArticleListQuery.Type
