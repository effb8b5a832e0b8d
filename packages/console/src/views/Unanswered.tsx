/** The questions nobody answered: groups of similar questions; each can become a curated answer or a document in one step. */
import { unwrap } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction, useLoad } from "../ui"

type Target = "curated" | "document"

const Resolve = ({ assistantId, groupId, examples, onDone }: {
  readonly assistantId: string
  readonly groupId: string
  readonly examples: ReadonlyArray<string>
  readonly onDone: () => void
}) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const [answer, setAnswer] = useState("")
  const [target, setTarget] = useState<Target>("curated")
  const { busy, error, run } = useAction()
  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      if (target === "curated") {
        await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/unanswered/{groupId}/curated", {
          params: { path: { assistantCode: assistantId, groupId } },
          body: { answer }
        }))
      } else {
        // A short text document: the questions as its heading and the answer as its body, so retrieval finds it.
        const content = `# ${examples[0] ?? ""}\n\n${examples.slice(1).map((example) => `- ${example}`).join("\n")}\n\n${answer}\n`
        await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/documents/text", {
          params: { path: { assistantCode: assistantId } },
          body: { filename: `answers/unanswered-${groupId}.md`, content }
        }))
      }
      setAnswer("")
      onDone()
    })
  }
  return (
    <form className="row-form" onSubmit={save}>
      <Field label={t("unanswered.answer")}>
        {(id) => <textarea id={id} required rows={2} value={answer} onChange={(event) => setAnswer(event.target.value)} />}
      </Field>
      <Field label={t("unanswered.saveAs")}>
        {(id) => (
          <select id={id} value={target} onChange={(event) => setTarget(event.target.value === "document" ? "document" : "curated")}>
            <option value="curated">{t("unanswered.asCurated")}</option>
            <option value="document">{t("unanswered.asDocument")}</option>
          </select>
        )}
      </Field>
      <button type="submit" disabled={busy}>{t("action.save")}</button>
      <ErrorNotice error={error} />
    </form>
  )
}

export const Unanswered = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, date, number, word } = useI18n()
  const { client } = useConsole()
  const [saved, setSaved] = useState<ReadonlyArray<string>>([])
  const report = useLoad(() =>
    unwrap(client.raw.GET("/v1/assistants/{assistantCode}/unanswered", { params: { path: { assistantCode: assistantId } } })),
    [client, assistantId])
  return (
    <section className="card" aria-labelledby="unanswered-title">
      <div className="card-head">
        <h2 id="unanswered-title">{t("unanswered.title")}</h2>
        <button type="button" onClick={() => void report.reload()}>{t("action.refresh")}</button>
      </div>
      <p className="muted">{t("unanswered.intro")}</p>
      <ErrorNotice error={report.error} />
      {report.value !== undefined && report.value.list.length === 0 && <p className="muted">{t("unanswered.none")}</p>}
      <ol className="plain">
        {(report.value?.list ?? []).map((group) => (
          <li key={group.id} className="card">
            <h3>{group.label} <span className="badge">{number(group.count)}</span></h3>
            <ul>{group.examples.map((example) => <li key={example}>{example}</li>)}</ul>
            <p className="muted small">
              {date(group.firstSeen)} – {date(group.lastSeen)} · {Object.entries(group.channels).map(([channel, n]) => `${channel} ${number(n)}`).join(", ")} · {Object.entries(group.reasons).map(([reason, n]) => `${word("reason", reason)} ${number(n)}`).join(", ")}
            </p>
            {saved.includes(group.id)
              ? <p className="ok">{t("unanswered.saved")}</p>
              : <Resolve assistantId={assistantId} groupId={group.id} examples={group.examples} onDone={() => setSaved([...saved, group.id])} />}
          </li>
        ))}
      </ol>
    </section>
  )
}
