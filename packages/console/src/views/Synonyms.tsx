/**
 * The assistant's synonyms: multi-way sets (each term finds the others) and one-way rules (a query with the root
 * also finds the terms). The next search uses a change; nothing is re-indexed.
 */
import type { Synonym } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"

/** Terms as typed: separated by Latin or Persian commas, each of one or more words. */
const termsOf = (text: string) => text.split(/[,،]/).map((term) => term.trim()).filter((term) => term !== "")

export const Synonyms = ({ assistantId, onChanged }: {
  readonly assistantId: string
  /** After an addition or a deletion, e.g. to search again with it. */
  readonly onChanged?: () => void
}) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const synonyms = useLoad(() => client.synonyms.list(assistantId), [client, assistantId])
  const [root, setRoot] = useState("")
  const [terms, setTerms] = useState("")
  const { busy, error, run } = useAction()
  const changed = async () => {
    await synonyms.reload()
    onChanged?.()
  }
  const add = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await client.synonyms.add(assistantId, {
        ...(root.trim() === "" ? {} : { root: root.trim() }),
        synonyms: termsOf(terms)
      })
      setRoot("")
      setTerms("")
      await changed()
    })
  }
  const remove = (synonymId: string) =>
    void run(async () => {
      await client.synonyms.delete(assistantId, synonymId)
      await changed()
    })
  const describe = (set: Synonym) => set.root === null ? set.synonyms.join(", ") : `${set.root} → ${set.synonyms.join(", ")}`
  const list = synonyms.value?.list ?? []
  return (
    <section className="card" aria-labelledby="synonyms-title">
      <h2 id="synonyms-title">{t("synonyms.title")}</h2>
      <p className="muted">{t("synonyms.intro")}</p>
      <form className="row-form" onSubmit={add} aria-label={t("synonyms.add")}>
        <Field label={t("synonyms.root")} hint={t("synonyms.rootHint")}>
          {(id) => <input id={id} dir="auto" maxLength={100} value={root} onChange={(event) => setRoot(event.target.value)} />}
        </Field>
        <Field label={t("synonyms.terms")} hint={t("synonyms.termsHint")}>
          {(id) => <input id={id} dir="auto" required value={terms} onChange={(event) => setTerms(event.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>{t("synonyms.add")}</button>
      </form>
      <ErrorNotice error={error ?? synonyms.error} />
      <ul className="plain" aria-label={t("synonyms.list")}>
        {!synonyms.loading && list.length === 0 && <li className="muted">{t("synonyms.none")}</li>}
        {list.map((set) => (
          <li key={set.id}>
            <span dir="auto">{describe(set)}</span>
            <span className="badge">{set.root === null ? t("synonyms.multiWay") : t("synonyms.oneWay")}</span>
            <ConfirmButton label={t("action.delete")} confirmLabel={t("synonyms.confirmDelete")} disabled={busy}
              onConfirm={() => remove(set.id)} />
          </li>
        ))}
      </ul>
    </section>
  )
}
