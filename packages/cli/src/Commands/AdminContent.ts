/**
 * `dastyar admin content …`: site articles. `publish <folder>` sends every
 * Markdown file with front matter; the server compares each with the stored
 * article, so unchanged files are reported `unchanged` and not rewritten.
 */
import { Content, Envelope, I18n, Validation } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import matter from "gray-matter"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { adminOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { type Column, table } from "../Render"
import { adminSession } from "../Session"

const contentType = Options.choice("type", Content.contentTypes).pipe(
  Options.withDescription("Article type"),
  Options.optional
)

/** Every `.md` file under `folder`, sorted, with its path relative to the folder. */
const markdownFiles = (folder: string) =>
  Effect.tryPromise({
    try: async () => {
      const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true })
      return entries
        .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(".md"))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .sort()
    },
    catch: (error) =>
      new CommandFailed({
        message: `cannot read the folder ${folder}: ${error instanceof Error ? error.message : String(error)}`,
        exitCode: ExitCode.usage
      })
  })

const isContentType = (value: unknown): value is Content.ContentType =>
  Content.contentTypes.some((type) => type === value)

/** YAML turns `2026-11-02` into a Date; the API takes ISO strings. */
const dateText = (value: unknown) => value instanceof Date ? value.toISOString() : value

interface Draft {
  readonly file: string
  readonly type: unknown
  readonly slug: unknown
  readonly payload: Record<string, unknown>
}

/**
 * One file as an article: front matter (`title`, `slug`, `type`, `summary`,
 * `category`, `language`, `tags`, `coverImageUrl`, `status`, `publishedAt`)
 * and the body as Markdown. The type defaults to `--type`, else the name of the
 * folder holding the file; the slug to the file name; the status to `published`.
 */
const readArticle = (
  folder: string,
  file: string,
  defaults: { type: Option.Option<string>; language: Option.Option<string> }
) =>
  Effect.tryPromise({
    try: () => fs.readFile(file, "utf8"),
    catch: (error) =>
      new CommandFailed({
        message: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
        exitCode: ExitCode.usage
      })
  }).pipe(Effect.map((text): Draft => {
    const { content, data } = matter(text)
    const front: Record<string, unknown> = data
    const parent = path.basename(path.dirname(path.resolve(file)))
    const type = front.type ?? Option.getOrUndefined(defaults.type) ??
      (path.resolve(path.dirname(file)) !== path.resolve(folder) || isContentType(parent) ? parent : undefined)
    const payload: Record<string, unknown> = {
      title: front.title,
      markdown: content.replace(/^\s*\n/, ""),
      language: front.language ?? Option.getOrUndefined(defaults.language),
      status: front.status ?? "published"
    }
    for (const key of ["summary", "category", "tags", "coverImageUrl"] as const) {
      if (front[key] !== undefined) payload[key] = front[key]
    }
    if (front.publishedAt !== undefined) payload.publishedAt = dateText(front.publishedAt)
    // A field left out is reported as required, not as "must be a string".
    const given = Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined))
    return { file, type, slug: front.slug ?? path.basename(file, path.extname(file)), payload: given }
  }))

const PublishTarget = Schema.Struct({ type: Content.ContentType, slug: Content.Slug })

/** The invalid fields of a failed decode, as the server would report them. */
const invalidFields = (error: ParseResult.ParseError) =>
  Validation.fieldsOf(ParseResult.ArrayFormatter.formatErrorSync(error))

const untyped = "type: is required (front matter `type:`, --type, or a blog/, guides/ or changelog/ folder)"

const PublishResult = Schema.Struct({
  list: Schema.Array(
    Schema.Struct({ file: Schema.String, type: Schema.String, slug: Schema.String, outcome: Content.WriteOutcome })
  ),
  created: Schema.Int,
  updated: Schema.Int,
  unchanged: Schema.Int
})

const publish = Command.make("publish", {
  ...adminOptions,
  folder: Args.directory({ name: "folder", exists: "yes" }).pipe(
    Args.withDescription("A folder of Markdown files with front matter; each file is one article")
  ),
  type: contentType,
  language: Options.text("language").pipe(
    Options.withDescription("Language of files without one in front matter"),
    Options.optional
  )
}, ({ folder, language, type, ...options }) =>
  Effect.gen(function*() {
    const { client, json } = yield* adminSession(options)
    const locale = I18n.negotiate(Option.getOrUndefined(options.lang))
    const files = yield* markdownFiles(folder)
    if (files.length === 0) {
      return yield* new CommandFailed({ message: `no .md files in ${folder}`, exitCode: ExitCode.usage })
    }
    // Check every file before writing any, so a broken file does not leave a half-published folder.
    const drafts = yield* Effect.forEach(files, (file) => readArticle(folder, file, { type, language }))
    const decodeTarget = Schema.decodeUnknown(PublishTarget, { errors: "all" })
    const decodeArticle = Schema.decodeUnknown(Content.ArticleWrite, { errors: "all" })
    const checked = yield* Effect.forEach(drafts, (draft) =>
      Effect.all({
        target: decodeTarget({ type: draft.type, slug: draft.slug }),
        payload: decodeArticle(draft.payload)
      }, { mode: "either" }).pipe(Effect.map((result) => ({ draft, result }))))
    const invalid = checked.flatMap(({ draft, result }) => {
      const fields = [result.target, result.payload].flatMap((either) =>
        either._tag === "Left" ? invalidFields(either.left) : []
      )
      const lines = fields
        // A missing type gets its own, more helpful line.
        .filter((field) => !(draft.type === undefined && field.property === "type"))
        .map(({ constraints, property }) =>
          `${property}: ${constraints.map((constraint) => I18n.translate(locale, constraint)).join(", ")}`
        )
      const all = draft.type === undefined ? [untyped, ...lines] : lines
      return all.length === 0 ? [] : [`${draft.file}: ${all.join("; ")}`]
    })
    if (invalid.length > 0) {
      yield* Effect.forEach(invalid, (line) => Console.error(line))
      return yield* new CommandFailed({
        message: `${invalid.length} problem(s) in the folder; nothing was published`,
        exitCode: ExitCode.usage
      })
    }
    const list: Array<typeof PublishResult.Type.list[number]> = []
    for (const { draft, result } of checked) {
      if (result.target._tag === "Left" || result.payload._tag === "Left") continue
      const { slug, type } = result.target.right
      const written = yield* client.adminContent.putArticle({ path: { type, slug }, payload: result.payload.right })
      list.push({ file: path.relative(folder, draft.file), type, slug, outcome: written.outcome })
    }
    const count = (outcome: Content.WriteOutcome) => list.filter((item) => item.outcome === outcome).length
    yield* printData(PublishResult, {
      list,
      created: count("created"),
      updated: count("updated"),
      unchanged: count("unchanged")
    }, {
      json,
      human: (result) =>
        [
          ...result.list.map((item) => `${item.outcome.padEnd(9)} ${item.type}/${item.slug}  (${item.file})`),
          `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`
        ].join("\n")
    })
  })).pipe(Command.withDescription(
    "Publish a folder of Markdown files with front matter (title, language, …); unchanged files are not rewritten"
  ))

const AdminArticleList = Envelope.ListOf(Content.AdminArticleSummary)

const columns: ReadonlyArray<Column<typeof Content.AdminArticleSummary.Encoded>> = [
  { header: "type", value: (article) => article.type },
  { header: "slug", value: (article) => article.slug },
  { header: "status", value: (article) => article.status },
  { header: "language", value: (article) => article.language },
  { header: "publishedAt", value: (article) => article.publishedAt },
  { header: "title", value: (article) => article.title }
]

const list = Command.make("list", {
  ...adminOptions,
  type: contentType,
  status: Options.choice("status", Content.ArticleStatus.to.literals).pipe(
    Options.withDescription("Only this status"),
    Options.optional
  )
}, ({ status, type, ...options }) =>
  Effect.gen(function*() {
    const { client, json } = yield* adminSession(options)
    const data = yield* client.adminContent.listArticles({
      urlParams: { type: Option.getOrUndefined(type), status: Option.getOrUndefined(status), limit: 500 }
    })
    yield* printData(AdminArticleList, data, {
      json,
      human: ({ count, list }) =>
        list.length === 0
          ? "No articles."
          : table(list, columns) + (count > list.length ? `\n(${list.length} of ${count} shown)` : "")
    })
  })).pipe(Command.withDescription("List articles, drafts included, most recently updated first"))

const target = {
  type: Args.choice(Content.contentTypes.map((type) => [type, type] as const), { name: "type" }).pipe(
    Args.withDescription("The kind of content")
  ),
  slug: Args.text({ name: "slug" }).pipe(Args.withDescription("The content's slug, as in its URL"))
}

const unpublish = Command.make(
  "unpublish",
  { ...adminOptions, ...target },
  ({ slug, type, ...options }) =>
    Effect.gen(function*() {
      const { client, json } = yield* adminSession(options)
      const article = yield* client.adminContent.getArticle({ path: { type, slug } })
      const written = yield* client.adminContent.putArticle({
        path: { type, slug },
        payload: {
          title: article.title,
          summary: article.summary,
          markdown: article.markdown,
          category: article.category,
          language: article.language,
          tags: article.tags,
          coverImageUrl: article.coverImageUrl,
          status: "draft",
          publishedAt: article.publishedAt
        }
      })
      yield* printData(Content.ArticleWritten, written, {
        json,
        human: ({ article, outcome }) =>
          outcome === "unchanged"
            ? `${type}/${slug} was already a draft.`
            : `${article.type}/${article.slug} is now a draft.`
      })
    })
).pipe(Command.withDescription("Turn a published article back into a draft (it leaves the public routes)"))

const remove = Command.make(
  "delete",
  { ...adminOptions, ...target },
  ({ slug, type, ...options }) =>
    Effect.gen(function*() {
      const { client, json } = yield* adminSession(options)
      yield* client.adminContent.deleteArticle({ path: { type, slug } })
      yield* json ? Console.log("null") : Console.log(`Deleted ${type}/${slug}.`)
    })
).pipe(Command.withDescription("Delete an article"))

export const contentCommand = Command.make("content").pipe(
  Command.withDescription("Site articles: blog, guides and changelog"),
  Command.withSubcommands([publish, list, unpublish, remove])
)
