/**
 * Website widget connections in the console: the settings form (create and
 * edit), the snippet to copy, the identity secret shown once, and a live
 * preview of the widget on this page. The preview uses a short-lived token for
 * the console's own origin; the connection's allowed origins stay as they are.
 */
import { type components, unwrap } from "@dastyar/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

type Connection = components["schemas"]["Connection"]
type WebSettings = components["schemas"]["WebSettings"]

/** The form's fields as typed: origins one per line, limits as text until sent. */
interface Draft {
  readonly origins: string
  readonly title: string
  readonly greeting: string
  readonly colour: string
  readonly defaultLanguage: "en" | "fa"
  readonly showProducts: boolean
  readonly showSources: boolean
  readonly perIp: string
  readonly perConnection: string
}

const draftOf = (settings?: WebSettings): Draft => ({
  origins: settings?.allowedOrigins.join("\n") ?? "",
  title: settings?.title ?? "Assistant",
  greeting: settings?.greeting ?? "",
  colour: settings?.colour ?? "#0f766e",
  defaultLanguage: settings?.defaultLanguage ?? "en",
  showProducts: settings?.showProducts ?? true,
  showSources: settings?.showSources ?? true,
  perIp: String(settings?.rateLimits.perIpPerMinute ?? 30),
  perConnection: String(settings?.rateLimits.perConnectionPerMinute ?? 600)
})

const settingsOf = (draft: Draft) => ({
  allowedOrigins: draft.origins.split(/\s+/).filter((origin) => origin !== ""),
  title: draft.title,
  greeting: draft.greeting,
  colour: draft.colour,
  defaultLanguage: draft.defaultLanguage,
  showProducts: draft.showProducts,
  showSources: draft.showSources,
  rateLimits: { perIpPerMinute: Number(draft.perIp), perConnectionPerMinute: Number(draft.perConnection) }
})

const WebFields = ({ draft, onChange }: { readonly draft: Draft; readonly onChange: (draft: Draft) => void }) => {
  const { t } = useI18n()
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...draft, [key]: value })
  return (
    <>
      <Field label={t("web.origins")} hint={t("web.originsHint")}>
        {(id) => <textarea id={id} required dir="ltr" rows={2} value={draft.origins} onChange={(event) => set("origins", event.target.value)} />}
      </Field>
      <Field label={t("web.widgetTitle")}>{(id) => <input id={id} required maxLength={80} value={draft.title} onChange={(event) => set("title", event.target.value)} />}</Field>
      <Field label={t("web.greeting")}>{(id) => <input id={id} maxLength={500} value={draft.greeting} onChange={(event) => set("greeting", event.target.value)} />}</Field>
      <Field label={t("web.colour")}>{(id) => <input id={id} type="color" value={draft.colour} onChange={(event) => set("colour", event.target.value)} />}</Field>
      <Field label={t("web.language")}>
        {(id) => (
          <select id={id} value={draft.defaultLanguage} onChange={(event) => set("defaultLanguage", event.target.value === "fa" ? "fa" : "en")}>
            <option value="fa">فارسی</option>
            <option value="en">English</option>
          </select>
        )}
      </Field>
      <label className="inline"><input type="checkbox" checked={draft.showProducts} onChange={(event) => set("showProducts", event.target.checked)} /> {t("web.showProducts")}</label>
      <label className="inline"><input type="checkbox" checked={draft.showSources} onChange={(event) => set("showSources", event.target.checked)} /> {t("web.showSources")}</label>
      <Field label={t("web.perIp")}>{(id) => <input id={id} type="number" min={1} max={10000} required value={draft.perIp} onChange={(event) => set("perIp", event.target.value)} />}</Field>
      <Field label={t("web.perConnection")}>{(id) => <input id={id} type="number" min={1} max={1000000} required value={draft.perConnection} onChange={(event) => set("perConnection", event.target.value)} />}</Field>
    </>
  )
}

/** The fields of a new web connection, inside the connections form (which sends them). */
export const useWebDraft = () => {
  const [draft, setDraft] = useState(draftOf())
  return { draft, setDraft, body: () => ({ driver: "web" as const, ...settingsOf(draft) }), reset: () => setDraft(draftOf()) }
}

export const WebCreateFields = ({ draft, onChange }: { readonly draft: Draft; readonly onChange: (draft: Draft) => void }) => (
  <WebFields draft={draft} onChange={onChange} />
)

export const CopyButton = ({ text, label }: { readonly text: string; readonly label: string }) => {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return <button type="button" onClick={() => void copy()}>{copied ? t("keys.copied") : label}</button>
}

/** The identity secret of a connection just created: shown once. */
export const WebSecret = ({ secret, onDone }: { readonly secret: string; readonly onDone: () => void }) => {
  const { t } = useI18n()
  return (
    <div className="new-key" role="status">
      <p className="warning">{t("web.secretOnce")}</p>
      <code className="raw-key" dir="ltr" data-testid="web-secret">{secret}</code>
      <div className="actions">
        <CopyButton text={secret} label={t("web.copySecret")} />
        <button type="button" onClick={onDone}>{t("keys.done")}</button>
      </div>
    </div>
  )
}

interface WidgetGlobal {
  readonly unmount?: (connection: string) => void
}

/**
 * Puts the widget on this page with a preview token (`issue` asks the operator's or the owner's route for
 * one), and takes it away again.
 */
export const usePreview = (connectionCode: string, issue: () => Promise<{ readonly previewToken: string }>) => {
  const [on, setOn] = useState(false)
  const { error, run } = useAction()
  useEffect(() => {
    if (!on) return
    let script: HTMLScriptElement | undefined
    void run(async () => {
      const preview = await issue()
      script = document.createElement("script")
      script.src = `${location.origin}/widget.js`
      script.dataset.connection = connectionCode
      script.dataset.previewToken = preview.previewToken
      document.body.append(script)
    })
    return () => {
      script?.remove()
      const widget: WidgetGlobal | undefined = Reflect.get(window, "DastyarWidget")
      widget?.unmount?.(connectionCode)
    }
  }, [on, connectionCode])
  return { on, toggle: () => setOn(!on), error }
}

/** A web connection in the list: its snippet, its settings and the preview. */
export const WebConnectionPanel = ({ assistantId, connection, onSaved }: {
  readonly assistantId: string
  readonly connection: Connection
  readonly onSaved: () => Promise<void>
}) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(draftOf(connection.web))
  const { busy, error, run } = useAction()
  const preview = usePreview(connection.connectionCode, () =>
    unwrap(client.raw.POST(
      "/admin/v1/assistants/{assistantId}/connections/{connectionCode}/web/preview",
      { params: { path: { assistantId, connectionCode: connection.connectionCode } }, body: { origin: location.origin } }
    )))
  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await unwrap(client.raw.PATCH("/admin/v1/assistants/{assistantId}/connections/{connectionCode}/web", {
        params: { path: { assistantId, connectionCode: connection.connectionCode } },
        body: settingsOf(draft)
      }))
      setEditing(false)
      await onSaved()
    })
  }
  return (
    <div className="web-connection">
      <div className="muted small">{t("web.allowed")}: <span dir="ltr">{connection.web?.allowedOrigins.join(", ")}</span></div>
      {connection.embedSnippet !== undefined && (
        <div className="actions">
          <code dir="ltr" data-testid="embed-snippet">{connection.embedSnippet}</code>
          <CopyButton text={connection.embedSnippet} label={t("web.copySnippet")} />
        </div>
      )}
      <div className="actions">
        <button type="button" aria-pressed={preview.on} onClick={preview.toggle}>{preview.on ? t("web.stopPreview") : t("web.preview")}</button>
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>{t("web.edit")}</button>
      </div>
      {preview.on && <p className="muted small" role="status">{t("web.previewHint")}</p>}
      {editing && (
        <form className="row-form" onSubmit={save}>
          <WebFields draft={draft} onChange={setDraft} />
          <button type="submit" disabled={busy}>{t("web.save")}</button>
        </form>
      )}
      <ErrorNotice error={error ?? preview.error} />
    </div>
  )
}
