/** An assistant's conversations: a filtered, paged list, and a thread with sources, products, feedback and "answer this better". */
import { unwrap, unwrapNull } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"

const channels = ["api", "web", "telegram", "bale", "whatsapp", "webhook"] as const
type Channel = (typeof channels)[number]
const isChannel = (value: string): value is Channel => channels.some((channel) => channel === value)

interface Filters {
  readonly channel: string
  readonly principal: string
  readonly needsAttention: boolean
  readonly negativeFeedback: boolean
}

const noFilters: Filters = { channel: "", principal: "", needsAttention: false, negativeFeedback: false }

/** The filters as the list's query: unset ones left out. */
const queryOf = (filters: Filters) => ({
  ...(isChannel(filters.channel) ? { channel: filters.channel } : {}),
  ...(filters.principal === "" ? {} : { principal: filters.principal }),
  ...(filters.needsAttention ? { needsAttention: "true" as const } : {}),
  ...(filters.negativeFeedback ? { negativeFeedback: "true" as const } : {})
})

/** Someone's better answer to the question a message replied to, saved as a curated answer. */
const AnswerBetter = ({ assistantId, conversationId, messageId }: { readonly assistantId: string; readonly conversationId: string; readonly messageId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const [answer, setAnswer] = useState("")
  const [done, setDone] = useState(false)
  const { busy, error, run } = useAction()
  const save = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await unwrap(client.raw.POST("/v1/assistants/{assistantCode}/conversations/{conversationId}/messages/{messageId}/curated", {
        params: { path: { assistantCode: assistantId, conversationId, messageId } },
        body: { answer }
      }))
      setDone(true)
    })
  }
  if (done) return <p className="ok">{t("conversations.curatedSaved")}</p>
  return (
    <form className="row-form" onSubmit={save}>
      <Field label={t("conversations.answerBetter")}>
        {(id) => <textarea id={id} required rows={2} value={answer} onChange={(event) => setAnswer(event.target.value)} />}
      </Field>
      <button type="submit" disabled={busy}>{t("action.save")}</button>
      <ErrorNotice error={error} />
    </form>
  )
}

const Thread = ({ assistantId, conversationId, onDeleted }: { readonly assistantId: string; readonly conversationId: string; readonly onDeleted: () => void }) => {
  const { t, date } = useI18n()
  const { client } = useConsole()
  const params = { params: { path: { assistantCode: assistantId, conversationId } } }
  const thread = useLoad(() => unwrap(client.raw.GET("/v1/assistants/{assistantCode}/conversations/{conversationId}", params)), [client, assistantId, conversationId])
  const { error, run } = useAction()
  const rate = (messageId: string, rating: "up" | "down") =>
    void run(async () => {
      await unwrap(client.raw.PUT("/v1/assistants/{assistantCode}/conversations/{conversationId}/messages/{messageId}/feedback", {
        params: { path: { assistantCode: assistantId, conversationId, messageId } },
        body: { rating }
      }))
      await thread.reload()
    })
  const remove = () =>
    void run(async () => {
      await unwrapNull(client.raw.DELETE("/v1/assistants/{assistantCode}/conversations/{conversationId}", params))
      onDeleted()
    })
  // A customer who asks to be forgotten: every conversation of theirs in this assistant goes, not only this one.
  const forget = (principal: string) =>
    void run(async () => {
      await unwrap(client.raw.DELETE("/v1/assistants/{assistantCode}/conversations", {
        params: { path: { assistantCode: assistantId }, query: { principal } }
      }))
      onDeleted()
    })
  const conversation = thread.value
  return (
    <section className="card" aria-labelledby="thread-title">
      <div className="card-head">
        <h3 id="thread-title">{conversation?.title ?? conversationId}</h3>
        <div className="actions">
          <ConfirmButton label={t("action.delete")} confirmLabel={t("conversations.confirmDelete")} onConfirm={remove} />
          {conversation !== undefined && (
            <ConfirmButton label={t("conversations.forget")} confirmLabel={t("conversations.confirmForget")} onConfirm={() => forget(conversation.principal)} />
          )}
        </div>
      </div>
      <ErrorNotice error={error ?? thread.error} />
      {conversation !== undefined && (
        <>
          <p className="muted small"><span dir="ltr">{conversation.principal}</span> · {conversation.channel} · {date(conversation.createdAt)}</p>
          <ol className="turns">
            {conversation.messages.map((message) => (
              <li key={message.id} className="turn">
                <strong>{message.role === "user" ? t("conversations.customer") : t("conversations.assistant")}</strong>
                <p>{message.content}</p>
                {message.role === "assistant" && (
                  <>
                    <p className="muted small">
                      {message.model} {message.degraded === true && `· ${t("conversations.degraded")}`} {message.declined === true && `· ${t("conversations.declined")}`}
                      {message.usage !== null && ` · ${t("conversations.tokens", { tokens: message.usage.promptTokens + message.usage.completionTokens + message.usage.embeddingTokens })}`}
                    </p>
                    {message.sources.length > 0 && (
                      <ul className="sources" aria-label={t("conversations.sources")}>
                        {message.sources.map((source) => (
                          <li key={`${source.fileId}-${source.chunk}`}>
                            <code dir="ltr">{source.kind === "curated" ? t("conversations.curatedSource") : source.path}</code> {source.text !== undefined && <span className="muted small">{source.text.slice(0, 200)}</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                    {message.products.length > 0 && <p className="small">{t("conversations.products")}: {message.products.map((product) => product.title ?? product.externalId).join(", ")}</p>}
                    <div className="actions">
                      <button type="button" aria-pressed={message.feedback?.rating === "up"} onClick={() => rate(message.id, "up")}>👍 {t("conversations.good")}</button>
                      <button type="button" aria-pressed={message.feedback?.rating === "down"} onClick={() => rate(message.id, "down")}>👎 {t("conversations.bad")}</button>
                    </div>
                    <AnswerBetter assistantId={assistantId} conversationId={conversationId} messageId={message.id} />
                  </>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}

export const Conversations = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, date, number } = useI18n()
  const { client } = useConsole()
  const [draft, setDraft] = useState<Filters>(noFilters)
  const [filters, setFilters] = useState<Filters>(noFilters)
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const [open, setOpen] = useState<string | undefined>(undefined)
  const cursor = cursors[cursors.length - 1]
  const page = useLoad(() =>
    unwrap(client.raw.GET("/v1/assistants/{assistantCode}/conversations", {
      params: { path: { assistantCode: assistantId }, query: { ...queryOf(filters), limit: "20", ...(cursor === undefined ? {} : { cursor }) } }
    })), [client, assistantId, filters, cursor])
  const apply = (event: FormEvent) => {
    event.preventDefault()
    setCursors([undefined])
    setFilters(draft)
  }
  return (
    <>
      <section className="card" aria-labelledby="conversations-title">
        <h2 id="conversations-title">{t("conversations.title")}</h2>
        <form className="row-form" onSubmit={apply}>
          <Field label={t("conversations.channel")}>
            {(id) => (
              <select id={id} value={draft.channel} onChange={(event) => setDraft({ ...draft, channel: event.target.value })}>
                <option value="">{t("conversations.anyChannel")}</option>
                {channels.map((channel) => <option key={channel} value={channel}>{channel}</option>)}
              </select>
            )}
          </Field>
          <Field label={t("conversations.principal")}>
            {(id) => <input id={id} dir="ltr" value={draft.principal} onChange={(event) => setDraft({ ...draft, principal: event.target.value })} />}
          </Field>
          <label className="inline"><input type="checkbox" checked={draft.needsAttention} onChange={(event) => setDraft({ ...draft, needsAttention: event.target.checked })} /> {t("conversations.needsAttention")}</label>
          <label className="inline"><input type="checkbox" checked={draft.negativeFeedback} onChange={(event) => setDraft({ ...draft, negativeFeedback: event.target.checked })} /> {t("conversations.negativeFeedback")}</label>
          <button type="submit">{t("action.filter")}</button>
        </form>
        <ErrorNotice error={page.error} />
        {page.value !== undefined && page.value.list.length === 0 && <p className="muted">{t("conversations.none")}</p>}
        {page.value !== undefined && page.value.list.length > 0 && (
          <div className="table-wrap">
            <table>
              <thead><tr><th scope="col">{t("conversations.started")}</th><th scope="col">{t("conversations.question")}</th><th scope="col">{t("conversations.channel")}</th><th scope="col">{t("conversations.principal")}</th><th scope="col">{t("conversations.messages")}</th><th scope="col">{t("conversations.flags")}</th></tr></thead>
              <tbody>
                {page.value.list.map((row) => (
                  <tr key={row.id}>
                    <td>{date(row.createdAt)}</td>
                    <td><button type="button" className="inline" onClick={() => setOpen(row.id)}>{row.title === "" ? row.id : row.title}</button></td>
                    <td>{row.channel}</td>
                    <td dir="ltr">{row.principal}</td>
                    <td>{number(row.messageCount)}</td>
                    <td>{row.needsAttention && <span className="warning">{t("conversations.needsAttention")}</span>} {row.negativeFeedback && <span>👎</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="actions">
          {cursors.length > 1 && <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>{t("action.previous")}</button>}
          {page.value?.nextCursor != null && <button type="button" onClick={() => setCursors([...cursors, page.value?.nextCursor ?? undefined])}>{t("action.next")}</button>}
        </div>
      </section>
      {open !== undefined && <Thread key={open} assistantId={assistantId} conversationId={open} onDeleted={() => { setOpen(undefined); void page.reload() }} />}
    </>
  )
}
