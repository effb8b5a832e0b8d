/** An account's conversation retention: how many days conversations are kept, or empty to keep them. */
import { unwrap } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction, useLoad } from "../ui"

export const Retention = ({ accountId }: { readonly accountId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const stored = useLoad(
    () =>
      unwrap(client.raw.GET("/admin/v1/accounts/{accountId}/retention", { params: { path: { accountId } } }))
        .then((retention) => retention.days),
    [client, accountId]
  )
  // What the operator typed; until then the field shows the stored value.
  const [typed, setTyped] = useState<string | undefined>(undefined)
  const [saved, setSaved] = useState(false)
  const { busy, error, run } = useAction()
  const days = typed ?? (stored.value === undefined || stored.value === null ? "" : String(stored.value))
  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const trimmed = days.trim()
      const result = await unwrap(client.raw.PUT("/admin/v1/accounts/{accountId}/retention", {
        params: { path: { accountId } },
        body: { days: trimmed === "" ? null : Number(trimmed) }
      }))
      stored.setValue(result.days)
      setTyped(undefined)
      setSaved(true)
    })
  }
  const status = (value: number | null) => {
    if (value === null) return t(saved ? "retention.keep" : "retention.storedKeep")
    return t(saved ? "retention.kept" : "retention.storedKept", { days: value })
  }
  return (
    <form className="row-form" onSubmit={save} aria-label={t("retention.title")}>
      <Field label={t("retention.days")} hint={t("retention.hint")}>
        {(id) => (
          <input
            id={id}
            type="number"
            min={1}
            max={36500}
            dir="ltr"
            value={days}
            disabled={stored.loading}
            onChange={(event) => setTyped(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={busy || stored.loading}>{t("action.save")}</button>
      {stored.value !== undefined && <p role="status" className="ok">{status(stored.value)}</p>}
      <ErrorNotice error={error ?? stored.error} />
    </form>
  )
}
