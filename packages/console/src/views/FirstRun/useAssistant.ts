/** One assistant as the signed-in credentials can read it: a key holder from its list, the operator by id. */
import type { Assistant } from "@dastyar/sdk"
import { useConsole } from "../../context"
import { useLoad } from "../../ui"

export const useAssistant = (assistantId: string) => {
  const { client, session } = useConsole()
  return useLoad<Assistant | undefined>(async () => {
    if (session.apiKey !== undefined) {
      return (await client.assistants.list()).list.find((assistant) => assistant.id === assistantId)
    }
    return session.adminToken === undefined ? undefined : await client.admin.getAssistant(assistantId)
  }, [client, session.apiKey, session.adminToken, assistantId])
}
