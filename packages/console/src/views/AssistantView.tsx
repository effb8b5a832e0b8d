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
import { Settings } from "./Settings"
import { Unanswered } from "./Unanswered"

const operatorTabs: ReadonlyArray<AssistantTab> = ["settings", "connections"]
const keyTabs: ReadonlyArray<AssistantTab> = ["documents", "products", "search", "chat", "conversations", "unanswered", "curated"]

export const AssistantView = ({ assistantId, tab }: { readonly assistantId: string; readonly tab: AssistantTab }) => {
  const { t, word } = useI18n()
  const { session } = useConsole()
  const tabs = assistantTabs.filter((candidate) =>
    (session.apiKey !== undefined && keyTabs.includes(candidate)) ||
    (session.adminToken !== undefined && operatorTabs.includes(candidate))
  )
  const needsKey = keyTabs.includes(tab) && session.apiKey === undefined
  return (
    <>
      <h1>{t("assistant.title")} <code dir="ltr" className="small">{assistantId}</code></h1>
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
        ? <Settings assistantId={assistantId} />
        : <Connections assistantId={assistantId} />}
    </>
  )
}
