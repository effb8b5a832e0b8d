/**
 * The chat playground: the answer streams in as it is written, then its
 * sources, products and `degraded` flag. The conversation is kept (also across
 * tabs) until "New chat".
 */
import type { ChatReply, Conversation } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

interface Turn {
  readonly question: string
  readonly answer: string
  readonly reply?: ChatReply | undefined
}

/** Conversations by assistant, kept while the page is open. */
const conversations = new Map<string, { conversation: Conversation; turns: ReadonlyArray<Turn> }>()

export const Chat = ({ assistantId, onAnswered }: {
  readonly assistantId: string
  /** Called when an answer is complete (the first-run guide moves on). */
  readonly onAnswered?: () => void
}) => {
  const { t, number, digits } = useI18n()
  const { client } = useConsole()
  const start = () => ({ conversation: client.conversation(assistantId, "console"), turns: [] })
  const [state, setState] = useState(() => conversations.get(assistantId) ?? start())
  const [message, setMessage] = useState("")
  const { busy, error, run } = useAction()
  const keep = (next: typeof state) => {
    conversations.set(assistantId, next)
    setState(next)
  }
  const send = (event: FormEvent) => {
    event.preventDefault()
    const question = message.trim()
    if (question === "") return
    setMessage("")
    let turns: ReadonlyArray<Turn> = [...state.turns, { question, answer: "" }]
    keep({ ...state, turns })
    const replaceLast = (change: Partial<Turn>) => {
      const last = turns.at(-1)
      if (last === undefined) return
      turns = [...turns.slice(0, -1), { ...last, ...change }]
      keep({ conversation: state.conversation, turns })
    }
    void run(async () => {
      let written = ""
      for await (const event of state.conversation.stream(question)) {
        if (event.type === "delta") {
          written += event.text
          replaceLast({ answer: written })
        } else {
          replaceLast({ answer: event.reply.text, reply: event.reply })
          onAnswered?.()
        }
      }
    })
  }
  return (
    <section className="card chat" aria-labelledby="chat-title">
      <div className="card-head">
        <h2 id="chat-title">{t("chat.title")}</h2>
        <button type="button" onClick={() => keep(start())} disabled={busy}>{t("chat.new")}</button>
      </div>
      <ol className="turns" aria-live="polite">
        {state.turns.map((turn, index) => (
          <li key={index} className="turn">
            <p className="question" dir="auto"><span className="visually-hidden">{t("chat.you")}: </span>{turn.question}</p>
            <div className="answer" data-testid="answer">
              <p dir="auto">{turn.answer === "" && busy ? t("chat.thinking") : digits(turn.answer)}</p>
              {turn.reply?.degraded === true && <p className="warning">{t("chat.degraded")}</p>}
              {turn.reply !== undefined && turn.reply.sources.length > 0 && (
                <div className="sources">
                  <h3>{t("chat.sources")}</h3>
                  <ul className="plain">
                    {turn.reply.sources.map((source) => (
                      <li key={`${source.fileId}-${source.chunk}`} data-testid="source">
                        <span dir="auto">{source.path}</span> · {t("chat.chunk", { n: number(source.chunk) })}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {turn.reply !== undefined && turn.reply.products.length > 0 && (
                <ul className="product-cards" aria-label={t("chat.products")}>
                  {turn.reply.products.map((product) => (
                    <li key={product.id} className="product-card">
                      {product.imageUrl !== null && <img src={product.imageUrl} alt="" width={64} height={64} loading="lazy" />}
                      <div>
                        {product.url !== null ? <a href={product.url} target="_blank" rel="noreferrer noopener" dir="auto">{product.title}</a> : <strong dir="auto">{product.title}</strong>}
                        {product.price !== null && <p>{number(product.price)} {product.currency ?? ""}</p>}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </li>
        ))}
      </ol>
      <form className="row-form" onSubmit={send}>
        <Field label={t("chat.message")}>
          {(id) => <textarea id={id} rows={2} value={message} onChange={(event) => setMessage(event.target.value)}
            onKeyDown={(event) => { if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); event.currentTarget.form?.requestSubmit() } }} />}
        </Field>
        <button type="submit" className="primary" disabled={busy || message.trim() === ""}>{t("chat.send")}</button>
      </form>
      <ErrorNotice error={error} />
    </section>
  )
}
