/**
 * Site content (operator): the article list, a Markdown editor, and the
 * preview of the HTML exactly as the server sanitised it when saving.
 */
import { unwrap, unwrapNull } from "@dastyar/sdk"
import type { components } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { Badge, ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"

type AdminArticle = components["schemas"]["AdminArticle"]
const types = ["blog", "guides", "changelog"] as const
type ContentType = (typeof types)[number]
const isType = (value: string): value is ContentType => types.some((item) => item === value)

interface Draft {
  readonly type: ContentType
  readonly slug: string
  readonly title: string
  readonly language: string
  readonly markdown: string
}

const emptyDraft: Draft = { type: "blog", slug: "", title: "", language: "en", markdown: "" }

export const Content = () => {
  const { t, word, date } = useI18n()
  const { client } = useConsole()
  const articles = useLoad(() => unwrap(client.raw.GET("/admin/v1/content/articles", { params: { query: { limit: "100" } } })), [client])
  const [draft, setDraft] = useState<Draft>(emptyDraft)
  const [saved, setSaved] = useState<AdminArticle | undefined>(undefined)
  const { busy, error, run } = useAction()
  const path = (type: ContentType, slug: string) => ({ params: { path: { type, slug } } })

  const open = (type: ContentType, slug: string) =>
    void run(async () => {
      const article = await unwrap(client.raw.GET("/admin/v1/content/{type}/articles/{slug}", path(type, slug)))
      setDraft({ type, slug, title: article.title, language: article.language, markdown: article.markdown })
      setSaved(article)
    })

  const write = (status: "draft" | "published") =>
    void run(async () => {
      await unwrap(client.raw.PUT("/admin/v1/content/{type}/articles/{slug}", {
        ...path(draft.type, draft.slug),
        body: { title: draft.title, markdown: draft.markdown, language: draft.language, status }
      }))
      setSaved(await unwrap(client.raw.GET("/admin/v1/content/{type}/articles/{slug}", path(draft.type, draft.slug))))
      await articles.reload()
    })

  const remove = (type: ContentType, slug: string) =>
    void run(async () => {
      await unwrapNull(client.raw.DELETE("/admin/v1/content/{type}/articles/{slug}", path(type, slug)))
      if (draft.type === type && draft.slug === slug) {
        setDraft(emptyDraft)
        setSaved(undefined)
      }
      await articles.reload()
    })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    write("draft")
  }

  return (
    <>
      <h1>{t("content.title")}</h1>
      <div className="card">
        <ErrorNotice error={articles.error} />
        <div className="table-wrap">
          <table>
            <thead><tr><th scope="col">{t("content.articleTitle")}</th><th scope="col">{t("content.type")}</th><th scope="col">{t("content.status")}</th><th scope="col">{t("content.updated")}</th><th scope="col"><span className="visually-hidden">{t("action.edit")}</span></th></tr></thead>
            <tbody>
              {(articles.value?.list ?? []).map((article) => (
                <tr key={`${article.type}/${article.slug}`}>
                  <td dir="auto">{article.title} <code dir="ltr">{article.slug}</code></td>
                  <td>{word("contentType", article.type)}</td>
                  <td><Badge value={article.status} label={word("articleStatus", article.status)} /></td>
                  <td>{date(article.updatedAt)}</td>
                  <td className="actions">
                    <button type="button" onClick={() => open(article.type, article.slug)}>{t("action.edit")}</button>
                    <ConfirmButton label={t("action.delete")} confirmLabel={t("content.confirmDelete")} onConfirm={() => remove(article.type, article.slug)} />
                  </td>
                </tr>
              ))}
              {articles.value?.list.length === 0 && <tr><td colSpan={5} className="muted">{t("content.none")}</td></tr>}
            </tbody>
          </table>
        </div>
      </div>
      <div className="editor">
        <form className="card" onSubmit={submit} aria-labelledby="editor-title">
          <h2 id="editor-title">{t("content.editor")}</h2>
          <Field label={t("content.type")}>
            {(id) => (
              <select id={id} value={draft.type} onChange={(event) => { const value = event.target.value; if (isType(value)) setDraft({ ...draft, type: value }) }}>
                {types.map((type) => <option key={type} value={type}>{word("contentType", type)}</option>)}
              </select>
            )}
          </Field>
          <Field label={t("content.slug")}>{(id) => <input id={id} required dir="ltr" value={draft.slug} onChange={(event) => setDraft({ ...draft, slug: event.target.value })} />}</Field>
          <Field label={t("content.articleTitle")}>{(id) => <input id={id} required value={draft.title} onChange={(event) => setDraft({ ...draft, title: event.target.value })} />}</Field>
          <Field label={t("content.language")}>{(id) => <input id={id} required dir="ltr" value={draft.language} onChange={(event) => setDraft({ ...draft, language: event.target.value })} />}</Field>
          <Field label={t("content.markdown")}>{(id) => <textarea id={id} required rows={14} dir="auto" className="mono" value={draft.markdown} onChange={(event) => setDraft({ ...draft, markdown: event.target.value })} />}</Field>
          <div className="actions">
            <button type="submit" disabled={busy}>{t("content.saveDraft")}</button>
            <button type="button" className="primary" disabled={busy} onClick={() => write("published")}>{t("content.publish")}</button>
            {saved?.status === "published" && <button type="button" disabled={busy} onClick={() => write("draft")}>{t("content.unpublish")}</button>}
          </div>
          <ErrorNotice error={error} />
        </form>
        <section className="card" aria-labelledby="preview-title">
          <h2 id="preview-title">{t("content.preview")}</h2>
          <p className="muted small">{t("content.previewNote")}</p>
          {saved !== undefined && (
            <>
              <Badge value={saved.status} label={word("articleStatus", saved.status)} />
              {/* The server's own rendering, sanitised by it (no scripts, handlers or javascript: links). */}
              <article className="preview" dir="auto" dangerouslySetInnerHTML={{ __html: saved.html }} />
            </>
          )}
        </section>
      </div>
    </>
  )
}
