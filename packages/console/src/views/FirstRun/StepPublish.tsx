/**
 * Step 5: the widget snippet of the assistant's connections, to paste into the
 * shop's site, or the way to a messenger. The operator sees each connection's
 * `embedSnippet` and a link to the Connections view. A key holder creates its
 * own web connection (its site's address), copies the snippet and previews
 * the widget here; messenger bots stay the operator's to connect.
 */
import { type components, unwrap } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../../context"
import { useI18n } from "../../i18n"
import { href } from "../../route"
import { ErrorNotice, Field, useAction, useLoad } from "../../ui"
import { usePreview } from "../WebConnection"

/** The snippet a connection carries, when its driver has one (the `web` driver's `embedSnippet`). */
const snippetOf = (connection: object): string | undefined =>
  "embedSnippet" in connection && typeof connection.embedSnippet === "string" ? connection.embedSnippet : undefined

/** A message naming the `</body>` tag, with the tag set left to right (in Persian it would read mirrored). */
const WithTag = ({ text }: { readonly text: string }) => {
  const [before, ...after] = text.split("</body>")
  return (
    <>
      {before}
      {after.length > 0 && <code dir="ltr">{"</body>"}</code>}
      {after.join("</body>")}
    </>
  )
}

const Snippet = ({ snippet }: { readonly snippet: string }) => {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="snippet">
      <p><WithTag text={t("firstRun.publish.snippet")} /></p>
      <pre dir="ltr" data-testid="embed-snippet"><code>{snippet}</code></pre>
      <button type="button" onClick={() => void copy()}>{copied ? t("firstRun.publish.copied") : t("firstRun.publish.copy")}</button>
    </div>
  )
}

const OperatorConnections = ({ assistantId }: { readonly assistantId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const connections = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/assistants/{assistantId}/connections", { params: { path: { assistantId } } })),
    [client, assistantId]
  )
  const snippets = (connections.value?.list ?? []).flatMap((connection) => {
    const snippet = snippetOf(connection)
    return snippet === undefined ? [] : [snippet]
  })
  return (
    <>
      <ErrorNotice error={connections.error} />
      {snippets.map((snippet) => <Snippet key={snippet} snippet={snippet} />)}
      {connections.value !== undefined && snippets.length === 0 && <p className="muted">{t("firstRun.publish.none")}</p>}
      <p><a href={href({ view: "assistant", assistantId, tab: "connections" })}>{t("firstRun.publish.connections")}</a></p>
    </>
  )
}

/** The owner's connection: its snippet, and the widget previewed on this page (the site list stays as it is). */
const OwnerSnippet = ({ assistantId, connection }: {
  readonly assistantId: string
  readonly connection: components["schemas"]["Connection"]
}) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const connectionCode = connection.connectionCode
  const preview = usePreview(connectionCode, () =>
    unwrap(client.raw.POST("/v1/assistants/{assistantCode}/web-connections/{connectionCode}/preview", {
      params: { path: { assistantCode: assistantId, connectionCode } },
      body: { origin: location.origin }
    })))
  return (
    <>
      <p className="muted small">{t("web.allowed")}: <span dir="ltr">{connection.web?.allowedOrigins.join(", ")}</span></p>
      {connection.embedSnippet !== undefined && <Snippet snippet={connection.embedSnippet} />}
      <div className="actions">
        <button type="button" aria-pressed={preview.on} onClick={preview.toggle}>{preview.on ? t("web.stopPreview") : t("web.preview")}</button>
      </div>
      {preview.on && <p className="muted small" role="status">{t("web.previewHint")}</p>}
      <ErrorNotice error={preview.error} />
    </>
  )
}

/** A key holder's own web connections; with none yet, a form asking for the shop's site address. */
const OwnerWidget = ({ assistantId, title }: { readonly assistantId: string; readonly title: string }) => {
  const { t, language } = useI18n()
  const { client } = useConsole()
  const path = { params: { path: { assistantCode: assistantId } } }
  const connections = useLoad(
    () => unwrap(client.raw.GET("/v1/assistants/{assistantCode}/web-connections", path)),
    [client, assistantId]
  )
  const [origin, setOrigin] = useState("")
  const { busy, error, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/web-connections", {
        ...path,
        body: {
          allowedOrigins: [origin.trim()],
          title: title.slice(0, 80) || "Assistant",
          defaultLanguage: language.code === "fa" ? "fa" : "en"
        }
      }))
      await connections.reload()
    })
  }
  const list = connections.value?.list ?? []
  return (
    <>
      <ErrorNotice error={connections.error ?? error} />
      {list.map((connection) => <OwnerSnippet key={connection.connectionCode} assistantId={assistantId} connection={connection} />)}
      {connections.value !== undefined && list.length === 0 && (
        <form className="row-form" onSubmit={create}>
          <Field label={t("firstRun.publish.origin")} hint={t("firstRun.publish.originHint")}>
            {(id) => <input id={id} type="url" required dir="ltr" placeholder="https://shop.example" value={origin} onChange={(event) => setOrigin(event.target.value)} />}
          </Field>
          <button type="submit" disabled={busy}>{t("firstRun.publish.create")}</button>
        </form>
      )}
      <p className="muted">{t("firstRun.publish.messengers")}</p>
    </>
  )
}

export const StepPublish = ({ assistantId, title }: { readonly assistantId: string; readonly title: string }) => {
  const { t } = useI18n()
  const { session } = useConsole()
  return (
    <>
      <p>{t("firstRun.publish.intro")}</p>
      {session.adminToken !== undefined
        ? <OperatorConnections assistantId={assistantId} />
        : session.apiKey !== undefined
        ? <OwnerWidget assistantId={assistantId} title={title} />
        : <p className="card note"><WithTag text={t("firstRun.publish.askOperator")} /></p>}
    </>
  )
}
