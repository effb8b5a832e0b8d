/** What every view uses: the SDK client for the signed-in credentials, the session and what was created in it. */
import { createDastyarClient, type DastyarClient } from "@dastyar/sdk"
import { createContext, useContext } from "react"
import type { Known, Session } from "./session"

export interface Console {
  readonly client: DastyarClient
  readonly session: Session
  readonly setSession: (session: Session) => void
  readonly known: Known
  readonly remember: (update: (known: Known) => Known) => void
  readonly signOut: () => void
}

/** The one SDK client, sending the operator token to `/admin/v1`, the key to `/v1` and the chosen language. */
export const makeClient = (session: Session, language: string): DastyarClient =>
  createDastyarClient({
    baseUrl: location.origin,
    adminToken: session.adminToken,
    apiKey: session.apiKey,
    language
  })

export const ConsoleContext = createContext<Console | undefined>(undefined)

export const useConsole = (): Console => {
  const value = useContext(ConsoleContext)
  if (value === undefined) throw new Error("useConsole outside the signed-in console")
  return value
}
