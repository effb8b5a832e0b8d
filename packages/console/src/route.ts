/** The console's address lives in the hash (`#/assistants/asst_…/chat`), so the server serves one page. */
import { useEffect, useState } from "react"

export type Route =
  | { readonly view: "home" }
  | { readonly view: "accounts" }
  | { readonly view: "content" }
  | { readonly view: "assistants" }
  | { readonly view: "assistant"; readonly assistantId: string; readonly tab: AssistantTab }

/** `start` is the first-run guide, opened from the assistant's page rather than shown as a tab. */
export const assistantTabs = [
  "documents",
  "products",
  "search",
  "chat",
  "conversations",
  "unanswered",
  "curated",
  "settings",
  "connections",
  "start"
] as const
export type AssistantTab = (typeof assistantTabs)[number]

const isTab = (value: string | undefined): value is AssistantTab => assistantTabs.some((tab) => tab === value)

export const parseRoute = (hash: string): Route => {
  const parts = hash.replace(/^#\/?/, "").split("/").filter((part) => part.length > 0).map(decodeURIComponent)
  const [first, second, third] = parts
  if (first === "accounts") return { view: "accounts" }
  if (first === "content") return { view: "content" }
  if (first === "assistants" && second !== undefined) {
    return { view: "assistant", assistantId: second, tab: isTab(third) ? third : "documents" }
  }
  if (first === "assistants") return { view: "assistants" }
  return { view: "home" }
}

export const href = (route: Route): string => {
  switch (route.view) {
    case "home":
      return "#/"
    case "assistant":
      return `#/assistants/${encodeURIComponent(route.assistantId)}/${route.tab}`
    default:
      return `#/${route.view}`
  }
}

export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash))
    window.addEventListener("hashchange", onChange)
    return () => window.removeEventListener("hashchange", onChange)
  }, [])
  return route
}
