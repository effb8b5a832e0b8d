/** The account's assistants (needs an API key); each opens its documents, products, search and chat. */
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { href } from "../route"
import { Badge, ErrorNotice, useLoad } from "../ui"

export const Assistants = () => {
  const { t, word, date } = useI18n()
  const { client, session } = useConsole()
  const assistants = useLoad(
    async () => (session.apiKey === undefined ? undefined : (await client.assistants.list()).list),
    [client, session.apiKey]
  )
  return (
    <>
      <h1>{t("nav.assistants")}</h1>
      {session.apiKey === undefined
        ? <p className="card">{t("assistants.needKey")}</p>
        : (
          <div className="card">
            <ErrorNotice error={assistants.error} />
            {assistants.value?.length === 0 && <p>{t("assistants.none")}</p>}
            <ul className="plain">
              {(assistants.value ?? []).map((assistant) => (
                <li key={assistant.id}>
                  <a href={href({ view: "assistant", assistantId: assistant.id, tab: "documents" })}>{assistant.name}</a>{" "}
                  <Badge value={assistant.status} label={word("status", assistant.status)} />{" "}
                  <span className="muted"><code dir="ltr">{assistant.model}</code> · {date(assistant.createdAt)}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
    </>
  )
}
