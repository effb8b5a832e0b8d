/** Curated answers: chat serves them instead of a model's when a question matches; list, add, delete, CSV in and out. */
import { unwrap, unwrapNull } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"

export const Curated = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, date, number } = useI18n()
  const { client } = useConsole()
  const path = { params: { path: { assistantCode: assistantId } } }
  const answers = useLoad(() =>
    unwrap(client.raw.GET("/v1/assistants/{assistantCode}/curated", { params: { ...path.params, query: { limit: "500" } } })),
    [client, assistantId])
  const [questions, setQuestions] = useState("")
  const [answer, setAnswer] = useState("")
  const [language, setLanguage] = useState("")
  const [csv, setCsv] = useState("")
  const [result, setResult] = useState<string | undefined>(undefined)
  const { busy, error, run } = useAction()
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const lines = questions.split("\n").map((line) => line.trim()).filter((line) => line.length > 0)
      await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/curated", {
        ...path,
        body: { questions: lines, answer, ...(language === "" ? {} : { language }) }
      }))
      setQuestions("")
      setAnswer("")
      await answers.reload()
    })
  }
  const importCsv = () =>
    void run(async () => {
      const counts = await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/curated/import", { ...path, body: { csv } }))
      setResult(t("curated.imported", { created: counts.created, updated: counts.updated }))
      setCsv("")
      await answers.reload()
    })
  const exportCsv = () =>
    void run(async () => {
      const { data } = await client.raw.GET("/v1/assistants/{assistantCode}/curated/export", { ...path, parseAs: "text" })
      const link = document.createElement("a")
      link.href = URL.createObjectURL(new Blob([data ?? ""], { type: "text/csv" }))
      link.download = "curated.csv"
      link.click()
    })
  const remove = (curatedId: string) =>
    void run(async () => {
      await unwrapNull(client.raw.DELETE("/v1/assistants/{assistantCode}/curated/{curatedId}", { params: { path: { assistantCode: assistantId, curatedId } } }))
      await answers.reload()
    })
  return (
    <section className="card" aria-labelledby="curated-title">
      <div className="card-head">
        <h2 id="curated-title">{t("curated.title")}</h2>
        <button type="button" onClick={exportCsv}>{t("curated.export")}</button>
      </div>
      <p className="muted">{t("curated.intro")}</p>
      <form className="row-form" onSubmit={create}>
        <Field label={t("curated.questions")} hint={t("curated.questionsHint")}>
          {(id) => <textarea id={id} required rows={3} value={questions} onChange={(event) => setQuestions(event.target.value)} />}
        </Field>
        <Field label={t("curated.answer")}>
          {(id) => <textarea id={id} required rows={3} value={answer} onChange={(event) => setAnswer(event.target.value)} />}
        </Field>
        <Field label={t("curated.language")}>
          {(id) => <input id={id} dir="ltr" size={4} value={language} onChange={(event) => setLanguage(event.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>{t("action.create")}</button>
      </form>
      <Field label={t("curated.import")} hint={t("curated.importHint")}>
        {(id) => <textarea id={id} dir="ltr" rows={3} value={csv} onChange={(event) => setCsv(event.target.value)} />}
      </Field>
      <button type="button" disabled={busy || csv.trim() === ""} onClick={importCsv}>{t("curated.importButton")}</button>
      {result !== undefined && <p className="ok">{result}</p>}
      <ErrorNotice error={error ?? answers.error} />
      <div className="table-wrap">
        <table>
          <thead><tr><th scope="col">{t("curated.questions")}</th><th scope="col">{t("curated.answer")}</th><th scope="col">{t("curated.hits")}</th><th scope="col">{t("curated.lastHit")}</th><th scope="col"><span className="visually-hidden">{t("action.delete")}</span></th></tr></thead>
          <tbody>
            {(answers.value?.list ?? []).map((row) => (
              <tr key={row.id}>
                <td>{row.questions.join(" · ")}</td>
                <td>{row.answer}</td>
                <td>{number(row.hitCount)}</td>
                <td>{row.lastHitAt === null ? "—" : date(row.lastHitAt)}</td>
                <td><ConfirmButton label={t("action.delete")} confirmLabel={t("curated.confirmDelete")} onConfirm={() => remove(row.id)} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
