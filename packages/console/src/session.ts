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
export interface KnownAccount {
  readonly id: string
  readonly name: string
  readonly plan: string
  readonly createdAt: string
}
export interface KnownKey {
  readonly id: string
  readonly name: string | null
  readonly accountId: string
  readonly revoked: boolean
}
export interface KnownItem {
  readonly id: string
  readonly name: string
  readonly accountId: string
}

export interface Known {
  readonly accounts: ReadonlyArray<KnownAccount>
  readonly keys: ReadonlyArray<KnownKey>
  readonly assistants: ReadonlyArray<KnownItem>
  readonly folders: ReadonlyArray<KnownItem>
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

const strings = (value: Record<string, unknown>, ...names: ReadonlyArray<string>) =>
  names.every((name) => typeof value[name] === "string")

const isAccount = (value: unknown): value is KnownAccount =>
  isRecord(value) && strings(value, "id", "name", "plan", "createdAt")
const isKey = (value: unknown): value is KnownKey =>
  isRecord(value) && strings(value, "id", "accountId") && typeof value.revoked === "boolean" &&
  (value.name === null || typeof value.name === "string")
const isItem = (value: unknown): value is KnownItem => isRecord(value) && strings(value, "id", "name", "accountId")

/** What was stored, keeping only well-formed entries (the storage is the user's to edit). */
export const loadKnown = (): Known => {
  const value = read(knownKey)
  if (!isRecord(value)) return emptyKnown
  const list = (field: keyof Known): ReadonlyArray<unknown> => {
    const stored = value[field]
    return Array.isArray(stored) ? stored : []
  }
  return {
    accounts: list("accounts").filter(isAccount),
    keys: list("keys").filter(isKey),
    assistants: list("assistants").filter(isItem),
    folders: list("folders").filter(isItem)
  }
}

export const saveKnown = (known: Known) => sessionStorage.setItem(knownKey, JSON.stringify(known))

export const clearAll = () => {
  sessionStorage.removeItem(sessionKey)
  sessionStorage.removeItem(knownKey)
}
