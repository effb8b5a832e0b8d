/**
 * A key holder's home: the assistants list, unless the guide should open by
 * itself: for the first assistant whose guide is under way and not closed, or
 * that has neither products nor documents and never had the guide. An
 * assistant found with either is remembered as not needing it.
 */
import { useEffect } from "react"
import { useConsole } from "../../context"
import { href } from "../../route"
import { Assistants } from "../Assistants"
import { fresh, loadProgress, saveProgress } from "./progress"

/** The assistant whose guide should open, if any. */
const firstRunOf = async (client: ReturnType<typeof useConsole>["client"]): Promise<string | undefined> => {
  const { list } = await client.assistants.list()
  for (const assistant of list) {
    const progress = loadProgress(assistant.id)
    if (progress !== undefined) {
      if (!progress.closed) return assistant.id
      continue
    }
    const [products, documents] = await Promise.all([
      client.products.list(assistant.id, { limit: 1 }),
      client.documents.list(assistant.id)
    ])
    if (products.list.length === 0 && documents.list.length === 0) return assistant.id
    // Not a first run: remembered as a closed guide, so the next visit does not list its documents again.
    saveProgress(assistant.id, { ...fresh, closed: true })
  }
  return undefined
}

export const FirstRunGate = () => {
  const { client, session } = useConsole()
  useEffect(() => {
    if (session.apiKey === undefined) return
    let current = true
    firstRunOf(client).then((assistantId) => {
      if (current && assistantId !== undefined && location.hash.replace(/^#\/?$/, "") === "") {
        location.hash = href({ view: "assistant", assistantId, tab: "start" })
      }
    }, () => undefined)
    return () => {
      current = false
    }
  }, [client, session.apiKey])
  return <Assistants />
}
