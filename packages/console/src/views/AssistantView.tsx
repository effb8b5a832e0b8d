/** One assistant: tabs for its documents, products, search and chat (and, for the operator, settings and channels). */
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { type AssistantTab, assistantTabs, href } from "../route"
import { Chat } from "./Chat"
import { Connections } from "./Connections"
import { Conversations } from "./Conversations"
import { Curated } from "./Curated"
import { Documents } from "./Documents"
import { Products } from "./Products"
import { Search } from "./Search"
import { useAssistant } from "./FirstRun/useAssistant"
import { OwnerSettings } from "./OwnerSettings"
import { Settings } from "./Settings"
import { Unanswered } from "./Unanswered"

const operatorTabs: ReadonlyArray<AssistantTab> = ["settings", "connections"]
const keyTabs: ReadonlyArray<AssistantTab> = ["documents", "products", "search", "chat", "conversations", "unanswered", "curated"]
/** A key holder also has settings: the assistant's name, language and instructions (`PATCH /v1/assistants/…`). */
const ownerTabs: ReadonlyArray<AssistantTab> = [...keyTabs, "settings"]

export const AssistantView = ({ assistantId, tab }: { readonly assistantId: string; readonly tab: AssistantTab }) => {
  const { t, word } = useI18n()
  const { session } = useConsole()
  const tabs = assistantTabs.filter((candidate) =>
    (session.apiKey !== undefined && ownerTabs.includes(candidate)) ||
    (session.adminToken !== undefined && operatorTabs.includes(candidate))
  )
  const needsKey = keyTabs.includes(tab) && session.apiKey === undefined
  const assistant = useAssistant(assistantId)
  return (
    <>
      <div className="card-head">
        <h1 dir="auto">{assistant.value?.name ?? t("assistant.title")}</h1>
        <code dir="ltr" className="small muted">{assistantId}</code>
        <a href={href({ view: "assistant", assistantId, tab: "start" })}>{t("firstRun.open")}</a>
      </div>
      <nav className="tabs" aria-label={t("assistant.tabs")}>
        {tabs.map((candidate) => (
          <a key={candidate} href={href({ view: "assistant", assistantId, tab: candidate })} aria-current={candidate === tab ? "page" : undefined}>
            {word("tab", candidate)}
          </a>
        ))}
      </nav>
      {needsKey
        ? <p className="card">{t("assistants.needKey")}</p>
        : tab === "documents"
        ? <Documents assistantId={assistantId} />
        : tab === "products"
        ? <Products assistantId={assistantId} />
        : tab === "search"
        ? <Search assistantId={assistantId} />
        : tab === "chat"
        ? <Chat assistantId={assistantId} />
        : tab === "conversations"
        ? <Conversations assistantId={assistantId} />
        : tab === "unanswered"
        ? <Unanswered assistantId={assistantId} />
        : tab === "curated"
        ? <Curated assistantId={assistantId} />
        : tab === "settings"
        ? session.adminToken !== undefined
          ? <Settings assistantId={assistantId} />
          : assistant.value !== undefined && <OwnerSettings assistant={assistant.value} onSaved={() => void assistant.reload()} />
        : <Connections assistantId={assistantId} />}
    </>
  )
}
