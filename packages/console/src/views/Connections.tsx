/** An assistant's connections (operator): Telegram, a webhook or the website widget; status, disable/enable, delete. */
import { unwrap, unwrapNull } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { Badge, ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"
import { useWebDraft, WebConnectionPanel, WebCreateFields, WebSecret } from "./WebConnection"

export const Connections = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, word, date } = useI18n()
  const { client } = useConsole()
  const path = { params: { path: { assistantId } } }
  const connections = useLoad(() => unwrap(client.raw.GET("/admin/v1/assistants/{assistantId}/connections", path)), [client, assistantId])
  const [driver, setDriver] = useState<"telegram" | "webhook" | "web">("telegram")
  const web = useWebDraft()
  const [webSecret, setWebSecret] = useState<string | undefined>(undefined)
  const [botToken, setBotToken] = useState("")
  const [callbackUrl, setCallbackUrl] = useState("")
  const [secret, setSecret] = useState("")
  const { busy, error, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const body = driver === "telegram" ? { driver, botToken } : driver === "web" ? web.body() : { driver, callbackUrl, secret }
      const created = await unwrap(client.raw.POST("/admin/v1/assistants/{assistantId}/connections", { ...path, body }))
      setWebSecret(created.connectionSecret)
      web.reset()
      setBotToken("")
      setSecret("")
      await connections.reload()
    })
  }
  const act = (connectionCode: string, action: "disable" | "enable" | "delete") =>
    void run(async () => {
      const params = { params: { path: { assistantId, connectionCode } } }
      if (action === "disable") await unwrap(client.raw.POST("/admin/v1/assistants/{assistantId}/connections/{connectionCode}/disable", params))
      else if (action === "enable") await unwrap(client.raw.POST("/admin/v1/assistants/{assistantId}/connections/{connectionCode}/enable", params))
      else await unwrapNull(client.raw.DELETE("/admin/v1/assistants/{assistantId}/connections/{connectionCode}", params))
      await connections.reload()
    })
  return (
    <section className="card" aria-labelledby="connections-title">
      <h2 id="connections-title">{t("connections.title")}</h2>
      <form className="row-form" onSubmit={create}>
        <Field label={t("connections.driver")}>
          {(id) => (
            <select id={id} value={driver} onChange={(event) => setDriver(event.target.value === "webhook" || event.target.value === "web" ? event.target.value : "telegram")}>
              <option value="telegram">Telegram</option>
              <option value="webhook">{t("connections.webhook")}</option>
              <option value="web">{t("web.driver")}</option>
            </select>
          )}
        </Field>
        {driver === "web" ? <WebCreateFields draft={web.draft} onChange={web.setDraft} /> : driver === "telegram"
          ? <Field label={t("connections.botToken")}>{(id) => <input id={id} required dir="ltr" type="password" autoComplete="off" value={botToken} onChange={(event) => setBotToken(event.target.value)} />}</Field>
          : (
            <>
              <Field label={t("connections.callbackUrl")}>{(id) => <input id={id} required dir="ltr" type="url" value={callbackUrl} onChange={(event) => setCallbackUrl(event.target.value)} />}</Field>
              <Field label={t("connections.secret")} hint={t("connections.secretHint")}>{(id) => <input id={id} required dir="ltr" type="password" minLength={32} autoComplete="off" value={secret} onChange={(event) => setSecret(event.target.value)} />}</Field>
            </>
          )}
        <button type="submit" disabled={busy}>{t("action.create")}</button>
      </form>
      {webSecret !== undefined && <WebSecret secret={webSecret} onDone={() => setWebSecret(undefined)} />}
      <ErrorNotice error={error ?? connections.error} />
      <ul className="plain">
        {(connections.value?.list ?? []).map((connection) => (
          <li key={connection.connectionCode}>
            <strong>{connection.driver}</strong> {connection.botUsername !== null && <span dir="ltr">@{connection.botUsername}</span>}{" "}
            <Badge value={connection.status} label={word("connection", connection.status)} />
            {connection.statusReason !== null && <span className="muted"> {connection.statusReason}</span>}
            <div className="muted small"><code dir="ltr">{connection.hookUrl}</code> · {date(connection.createdAt)}</div>
            {connection.driver === "web" && <WebConnectionPanel assistantId={assistantId} connection={connection} onSaved={connections.reload} />}
            <div className="actions">
              {connection.status === "disabled"
                ? <button type="button" onClick={() => act(connection.connectionCode, "enable")}>{t("connections.enable")}</button>
                : <button type="button" onClick={() => act(connection.connectionCode, "disable")}>{t("connections.disable")}</button>}
              <ConfirmButton label={t("action.delete")} confirmLabel={t("connections.confirmDelete")} onConfirm={() => act(connection.connectionCode, "delete")} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
