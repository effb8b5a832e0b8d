/**
 * An assistant's connections (operator): Telegram, Bale, WhatsApp, a webhook (fields in `ConnectionForms.tsx`) or
 * the website widget (`WebConnection.tsx`); status, disable/enable, delete.
 */
import { unwrap, unwrapNull } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { Badge, ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"
import { afterCreate, bodyFor, type DriverChoice, DriverFields, DriverOptions, emptyValues, isDriver } from "./ConnectionForms"
import { useWebDraft, WebConnectionPanel, WebCreateFields, WebSecret } from "./WebConnection"

export const Connections = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, word, date } = useI18n()
  const { client } = useConsole()
  const path = { params: { path: { assistantId } } }
  const connections = useLoad(() => unwrap(client.raw.GET("/admin/v1/assistants/{assistantId}/connections", path)), [client, assistantId])
  const [driver, setDriver] = useState<DriverChoice | "web">("telegram")
  const [values, setValues] = useState(emptyValues)
  const web = useWebDraft()
  const [webSecret, setWebSecret] = useState<string | undefined>(undefined)
  const { busy, error, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const body = driver === "web" ? web.body() : bodyFor(driver, values)
      const created = await unwrap(client.raw.POST("/admin/v1/assistants/{assistantId}/connections", { ...path, body }))
      setWebSecret(created.connectionSecret)
      web.reset()
      setValues(afterCreate(values))
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
            <select id={id} value={driver} onChange={(event) => {
              const value = event.target.value
              if (value === "web" || isDriver(value)) setDriver(value)
            }}>
              <DriverOptions />
              <option value="web">{t("web.driver")}</option>
            </select>
          )}
        </Field>
        {driver === "web"
          ? <WebCreateFields draft={web.draft} onChange={web.setDraft} />
          : <DriverFields driver={driver} values={values} onChange={setValues} />}
        <button type="submit" disabled={busy}>{t("action.create")}</button>
      </form>
      {webSecret !== undefined && <WebSecret secret={webSecret} onDone={() => setWebSecret(undefined)} />}
      <ErrorNotice error={error ?? connections.error} />
      <ul className="plain">
        {(connections.value?.list ?? []).map((connection) => (
          <li key={connection.connectionCode}>
            <strong>{connection.driver}</strong> {connection.botUsername !== null && <span dir="ltr">@{connection.botUsername}</span>}
            {connection.phoneNumberId !== null && <span dir="ltr">{connection.phoneNumberId}</span>}{" "}
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
