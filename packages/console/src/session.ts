/**
 * The signed-in credentials and what was created in this browser session, kept
 * in session storage only (gone when the tab closes); sign-out clears both.
 */
export interface Session {
  /** Operator token: the operator API (`/admin/v1`). */
  readonly adminToken?: string | undefined
  /** An account's API key: that account's API (`/v1`). */
  readonly apiKey?: string | undefined
}

/** Things the operator API cannot list yet, remembered as they are created here. */
export interface Known {
  readonly accounts: ReadonlyArray<{ readonly id: string; readonly name: string; readonly plan: string; readonly createdAt: string }>
  readonly keys: ReadonlyArray<{ readonly id: string; readonly name: string | null; readonly accountId: string; readonly revoked: boolean }>
  readonly assistants: ReadonlyArray<{ readonly id: string; readonly name: string; readonly accountId: string }>
  readonly folders: ReadonlyArray<{ readonly id: string; readonly name: string; readonly accountId: string }>
}

export const emptyKnown: Known = { accounts: [], keys: [], assistants: [], folders: [] }

const sessionKey = "dastyar.console.session"
const knownKey = "dastyar.console.known"

const read = (key: string): unknown => {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null")
  } catch {
    return null
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
const optionalString = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined)

export const loadSession = (): Session => {
  const value = read(sessionKey)
  return isRecord(value) ? { adminToken: optionalString(value.adminToken), apiKey: optionalString(value.apiKey) } : {}
}

export const saveSession = (session: Session) => sessionStorage.setItem(sessionKey, JSON.stringify(session))

export const loadKnown = (): Known => {
  const value = read(knownKey)
  if (!isRecord(value)) return emptyKnown
  const list = <T,>(field: keyof Known): ReadonlyArray<T> => (Array.isArray(value[field]) ? value[field] : [])
  return { accounts: list("accounts"), keys: list("keys"), assistants: list("assistants"), folders: list("folders") }
}

export const saveKnown = (known: Known) => sessionStorage.setItem(knownKey, JSON.stringify(known))

export const clearAll = () => {
  sessionStorage.removeItem(sessionKey)
  sessionStorage.removeItem(knownKey)
}
