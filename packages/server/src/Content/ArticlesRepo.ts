/** Article rows. "Public" means published with a publish time that has come. */
import { Content } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** Columns beside the API's fields (status and creation time are the operator's), and timestamps as stored. */
const storedColumns = {
  status: Content.ArticleStatus,
  publishedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
}

export const ArticleSummaryRow = Schema.Struct({ ...Content.ArticleSummary.fields, ...storedColumns })
export type ArticleSummaryRow = typeof ArticleSummaryRow.Type

export const ArticleRow = Schema.Struct({ ...Content.Article.fields, ...storedColumns })
export type ArticleRow = typeof ArticleRow.Type

/** What a write stores; timestamps are the database's. */
export interface ArticleFields {
  readonly title: string
  readonly summary: string | null
  readonly markdown: string
  readonly html: string
  readonly category: string | null
  readonly language: string
  readonly tags: ReadonlyArray<string>
  readonly coverImageUrl: string | null
  readonly status: Content.ArticleStatus
  readonly publishedAt: Date | null
}

export interface ArticleFilter {
  readonly type?: string | undefined
  readonly status?: string | undefined
  readonly category?: string | undefined
  readonly language?: string | undefined
  /** Only published articles whose publish time has come. */
  readonly public: boolean
}

const Key = Schema.Struct({ type: Schema.String, slug: Schema.String })
const Count = Schema.Struct({ count: Schema.NumberFromString })

const summarySelect =
  "type, slug, title, summary, category, language, tags, cover_image_url, status, published_at, created_at, updated_at"

export class ArticlesRepo extends Effect.Service<ArticlesRepo>()("ArticlesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const where = (filter: ArticleFilter) =>
      sql.and([
        ...(filter.public ? [sql`status = 'published' AND published_at <= now()`] : []),
        ...(filter.type === undefined ? [] : [sql`type = ${filter.type}`]),
        ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
        ...(filter.category === undefined ? [] : [sql`category = ${filter.category}`]),
        ...(filter.language === undefined ? [] : [sql`language = ${filter.language}`])
      ])

    const find = SqlSchema.findOne({
      Request: Key,
      Result: ArticleRow,
      execute: ({ slug, type }) => sql`SELECT * FROM articles WHERE type = ${type} AND slug = ${slug}`
    })

    const findPublic = SqlSchema.findOne({
      Request: Key,
      Result: ArticleRow,
      execute: ({ slug, type }) => sql`SELECT * FROM articles WHERE ${where({ public: true, type })} AND slug = ${slug}`
    })

    return {
      find: (type: Content.ContentType, slug: string) => find({ type, slug }).pipe(Effect.orDie),
      findPublic: (type: Content.ContentType, slug: string) => findPublic({ type, slug }).pipe(Effect.orDie),

      /** Inserts or replaces the article; `updated_at` moves only here. */
      upsert: (type: Content.ContentType, slug: string, fields: ArticleFields) =>
        sql`
          INSERT INTO articles (type, slug, title, summary, markdown, html, category, language, tags, cover_image_url, status, published_at)
          VALUES (${type}, ${slug}, ${fields.title}, ${fields.summary}, ${fields.markdown}, ${fields.html},
            ${fields.category}, ${fields.language}, ${JSON.stringify(fields.tags)}::jsonb, ${fields.coverImageUrl},
            ${fields.status}, ${fields.publishedAt})
          ON CONFLICT (type, slug) DO UPDATE SET
            title = EXCLUDED.title, summary = EXCLUDED.summary, markdown = EXCLUDED.markdown, html = EXCLUDED.html,
            category = EXCLUDED.category, language = EXCLUDED.language, tags = EXCLUDED.tags,
            cover_image_url = EXCLUDED.cover_image_url, status = EXCLUDED.status,
            published_at = EXCLUDED.published_at, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie),

      remove: (type: Content.ContentType, slug: string) =>
        sql<{ readonly slug: string }>`DELETE FROM articles WHERE type = ${type} AND slug = ${slug} RETURNING slug`
          .pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          ),

      /** A page of summaries and the number of all matching articles. */
      page: (
        filter: ArticleFilter,
        page: { readonly limit: number; readonly offset: number },
        order: "published" | "updated"
      ) =>
        Effect.all({
          list: sql`
            SELECT ${sql.literal(summarySelect)} FROM articles WHERE ${where(filter)}
            ORDER BY ${order === "published" ? sql`published_at DESC` : sql`updated_at DESC`}, type, slug
            LIMIT ${page.limit} OFFSET ${page.offset}`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Array(ArticleSummaryRow)))
          ),
          count: sql`SELECT count(*)::text AS count FROM articles WHERE ${where(filter)}`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Tuple(Count))),
            Effect.map(([row]) => row.count)
          )
        }, { concurrency: 1 }).pipe(Effect.orDie),

      categories: (type: Content.ContentType, language: string | undefined) =>
        sql<{ readonly name: string; readonly articles: string }>`
          SELECT category AS name, count(*)::text AS articles FROM articles
          WHERE ${where({ public: true, type, language })} AND category IS NOT NULL
          GROUP BY category ORDER BY category`.pipe(
          Effect.map((rows) => rows.map((row) => ({ name: row.name, articles: Number(row.articles) }))),
          Effect.orDie
        ),

      publicSlugs: sql`
        SELECT type, slug, language, updated_at FROM articles WHERE ${where({ public: true })}
        ORDER BY published_at DESC, type, slug`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({
          type: Content.ContentType,
          slug: Schema.String,
          language: Schema.String,
          updatedAt: Schema.DateTimeUtcFromDate
        })))),
        Effect.orDie
      )
    } as const
  })
}) {}
