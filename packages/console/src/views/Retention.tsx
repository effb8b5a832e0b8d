/** An account's conversation retention: how many days conversations are kept, or empty to keep them. */
import { unwrap } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

export const Retention = ({ accountId }: { readonly accountId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const [days, setDays] = useState("")
  // The operator API sets retention but does not read it back, so the view shows what this tab saved.
  const [saved, setSaved] = useState<number | null | undefined>(undefined)
  const { busy, error, run } = useAction()
  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const trimmed = days.trim()
      const result = await unwrap(client.raw.PUT("/admin/v1/accounts/{accountId}/retention", {
        params: { path: { accountId } },
        body: { days: trimmed === "" ? null : Number(trimmed) }
      }))
      setSaved(result.days)
    })
  }
  return (
    <form className="row-form" onSubmit={save} aria-label={t("retention.title")}>
      <Field label={t("retention.days")} hint={t("retention.hint")}>
        {(id) => <input id={id} type="number" min={1} max={36500} dir="ltr" value={days} onChange={(event) => setDays(event.target.value)} />}
      </Field>
      <button type="submit" disabled={busy}>{t("action.save")}</button>
      {saved !== undefined && (
        <p role="status" className="ok">{saved === null ? t("retention.keep") : t("retention.kept", { days: saved })}</p>
      )}
      <ErrorNotice error={error} />
    </form>
  )
}
