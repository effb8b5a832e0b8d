/**
 * Site articles: written by the operator (rendered and sanitised once, at
 * write time), read publicly only when published and due.
 */
import { Content } from "@dastyar/domain"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ArticleFields, type ArticleRow, ArticlesRepo, type ArticleSummaryRow } from "./ArticlesRepo"
import { renderMarkdown } from "./Markdown"

const toPublicSummary = (row: ArticleSummaryRow): Content.ArticleSummary => ({
  type: row.type,
  slug: row.slug,
  title: row.title,
  summary: row.summary,
  category: row.category,
  language: row.language,
  tags: row.tags,
  coverImageUrl: row.coverImageUrl,
  publishedAt: row.publishedAt,
  updatedAt: row.updatedAt
})

const toPublic = (row: ArticleRow): Content.Article => ({
  ...toPublicSummary(row),
  markdown: row.markdown,
  html: row.html
})

const toAdminSummary = (row: ArticleSummaryRow): Content.AdminArticleSummary => ({
  ...toPublicSummary(row),
  status: row.status,
  createdAt: row.createdAt
})

const toAdmin = (row: ArticleRow): Content.AdminArticle => ({
  ...toAdminSummary(row),
  markdown: row.markdown,
  html: row.html
})

const sameFields = (row: ArticleRow, fields: ArticleFields) =>
  row.title === fields.title &&
  row.summary === fields.summary &&
  row.markdown === fields.markdown &&
  row.html === fields.html &&
  row.category === fields.category &&
  row.language === fields.language &&
  row.tags.length === fields.tags.length && row.tags.every((tag, i) => tag === fields.tags[i]) &&
  row.coverImageUrl === fields.coverImageUrl &&
  row.status === fields.status &&
  (row.publishedAt === null ? null : DateTime.toEpochMillis(row.publishedAt)) ===
    (fields.publishedAt === null ? null : fields.publishedAt.getTime())

export class Articles extends Effect.Service<Articles>()("Articles", {
  effect: Effect.gen(function*() {
    const repo = yield* ArticlesRepo

    const requireRow = (row: Option.Option<ArticleRow>) =>
      Option.match(row, { onNone: () => Effect.fail(new Content.ArticleNotFound()), onSome: Effect.succeed })

    return {
      /** Creates or replaces; identical fields are not rewritten (`updatedAt`, and so the ETag, stay). */
      put: Effect.fn("Articles.put")(function*(type: Content.ContentType, slug: string, input: Content.ArticleWrite) {
        const existing = yield* repo.find(type, slug)
        const now = yield* DateTime.now
        // Without a publish time, publishing keeps the first one (or takes now); a draft keeps whatever it had.
        const publishedAt = input.publishedAt
          ? DateTime.toDateUtc(input.publishedAt)
          : Option.match(Option.flatMapNullable(existing, (row) => row.publishedAt), {
            onSome: DateTime.toDateUtc,
            onNone: () => input.status === "published" ? DateTime.toDateUtc(now) : null
          })
        const fields: ArticleFields = {
          title: input.title,
          summary: input.summary ?? null,
          markdown: input.markdown,
          html: yield* renderMarkdown(input.markdown),
          category: input.category ?? null,
          language: input.language,
          tags: input.tags ?? [],
          coverImageUrl: input.coverImageUrl ?? null,
          status: input.status,
          publishedAt
        }
        if (Option.isSome(existing) && sameFields(existing.value, fields)) {
          return { outcome: "unchanged" as const, article: toAdmin(existing.value) }
        }
        yield* repo.upsert(type, slug, fields)
        const stored = yield* repo.find(type, slug).pipe(Effect.flatMap(requireRow), Effect.orDie)
        return { outcome: Option.isSome(existing) ? "updated" as const : "created" as const, article: toAdmin(stored) }
      }),

      remove: Effect.fn("Articles.remove")(function*(type: Content.ContentType, slug: string) {
        if (!(yield* repo.remove(type, slug))) return yield* new Content.ArticleNotFound()
      }),

      adminGet: Effect.fn("Articles.adminGet")(function*(type: Content.ContentType, slug: string) {
        return toAdmin(yield* repo.find(type, slug).pipe(Effect.flatMap(requireRow)))
      }),

      adminList: Effect.fn("Articles.adminList")(function*(query: Content.AdminArticleListQuery) {
        const { count, list } = yield* repo.page(
          { public: false, type: query.type, status: query.status, language: query.language },
          { limit: query.limit ?? 100, offset: query.offset ?? 0 },
          "updated"
        )
        return { list: list.map(toAdminSummary), count }
      }),

      publicList: Effect.fn("Articles.publicList")(
        function*(type: Content.ContentType, query: Content.ArticleListQuery) {
          const { count, list } = yield* repo.page(
            { public: true, type, category: query.category, language: query.language },
            { limit: query.limit ?? 20, offset: query.offset ?? 0 },
            "published"
          )
          return { list: list.map(toPublicSummary), count }
        }
      ),

      publicGet: Effect.fn("Articles.publicGet")(function*(type: Content.ContentType, slug: string) {
        return toPublic(yield* repo.findPublic(type, slug).pipe(Effect.flatMap(requireRow)))
      }),

      categories: Effect.fn("Articles.categories")(function*(type: Content.ContentType, language: string | undefined) {
        const list = yield* repo.categories(type, language)
        return { list, count: list.length }
      }),

      slugs: Effect.fn("Articles.slugs")(function*() {
        const list = yield* repo.publicSlugs
        return { list, count: list.length }
      })
    } as const
  }),
  dependencies: [ArticlesRepo.Default]
}) {}
