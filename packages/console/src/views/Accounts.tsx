/**
 * The operator's view: accounts (listed by the operator API), their API keys,
 * folders and assistants. The operator API cannot list keys, assistants or
 * folders yet, so the console lists those created in this browser session.
 */
import { type Account, type CreatedApiKey, type Model, unwrap } from "@dastyar/sdk"
import { type FormEvent, useEffect, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { href } from "../route"
import type { Known } from "../session"
import { Badge, ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"
import { Retention } from "./Retention"

type KnownAccount = Known["accounts"][number]

const CreateAccount = () => {
  const { t } = useI18n()
  const { client, remember } = useConsole()
  const [name, setName] = useState("")
  const [plan, setPlan] = useState("")
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const account: Account = await client.admin.createAccount(plan.trim() === "" ? { name } : { name, plan: plan.trim() })
      remember((known) => ({ ...known, accounts: [...known.accounts, account] }))
      setName("")
      setPlan("")
    })
  }
  return (
    <form className="card row-form" onSubmit={submit} aria-labelledby="new-account">
      <h2 id="new-account">{t("accounts.create")}</h2>
      <Field label={t("accounts.name")}>
        {(id) => <input id={id} required value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      <Field label={t("accounts.plan")} hint={t("accounts.planHint")}>
        {(id) => <input id={id} value={plan} dir="ltr" onChange={(event) => setPlan(event.target.value)} />}
      </Field>
      <button type="submit" className="primary" disabled={busy}>{t("action.create")}</button>
      <ErrorNotice error={error} />
    </form>
  )
}

/** The raw key, shown once, with a copy button and the warning. */
const NewKey = ({ created, onDone }: { readonly created: CreatedApiKey; readonly onDone: () => void }) => {
  const { t } = useI18n()
  const { session, setSession } = useConsole()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="new-key" role="status">
      <p className="warning">{t("keys.shownOnce")}</p>
      <code className="raw-key" dir="ltr" data-testid="raw-key">{created.key}</code>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void copy()}>{copied ? t("keys.copied") : t("keys.copy")}</button>
        <button type="button" onClick={() => { setSession({ ...session, apiKey: created.key }); onDone() }}>{t("keys.useHere")}</button>
        <button type="button" onClick={onDone}>{t("keys.done")}</button>
      </div>
    </div>
  )
}

/** A key as listed: from the API (with prefix and last use) or as created in this tab. */
interface ListedKey {
  readonly id: string
  readonly name: string | null
  readonly revoked: boolean
  readonly prefix: string | null
  readonly lastUsedAt: string | null | undefined
}

const Keys = ({ account }: { readonly account: KnownAccount }) => {
  const { t, date } = useI18n()
  const { client, known, remember } = useConsole()
  const [name, setName] = useState("")
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined)
  const { busy, error, run } = useAction()
  // Listed from the API (read again after each change here); the keys created in this tab until it answers.
  const listed = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/accounts/{accountId}/keys", { params: { path: { accountId: account.id } } })),
    [client, account.id, known.keys]
  )
  const keys: ReadonlyArray<ListedKey> = listed.value?.list.map((key) => ({ ...key, revoked: key.revokedAt !== null })) ??
    known.keys.filter((key) => key.accountId === account.id).map((key) => ({ ...key, prefix: null, lastUsedAt: undefined }))
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const key = await client.admin.createKey(account.id, name.trim() === "" ? {} : { name: name.trim() })
      remember((current) => ({ ...current, keys: [...current.keys, { id: key.id, name: key.name, accountId: account.id, revoked: false }] }))
      setCreated(key)
      setName("")
    })
  }
  const revoke = (keyId: string) =>
    void run(async () => {
      await client.admin.revokeKey(keyId)
      remember((current) => ({ ...current, keys: current.keys.map((key) => (key.id === keyId ? { ...key, revoked: true } : key)) }))
    })
  return (
    <section aria-label={t("keys.title")}>
      <h3>{t("keys.title")}</h3>
      <form className="row-form" onSubmit={create}>
        <Field label={t("keys.name")}>
          {(id) => <input id={id} value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>{t("keys.create")}</button>
      </form>
      {created !== undefined && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      {keys.length > 0 && (
        <ul className="plain">
          {keys.map((key) => (
            <li key={key.id}>
              <span>{key.name ?? t("keys.unnamed")}</span> <code dir="ltr">{key.prefix === null ? key.id : `${key.prefix}…`}</code>{" "}
              {key.lastUsedAt !== undefined && <span className="muted small">{key.lastUsedAt === null ? t("keys.neverUsed") : t("keys.lastUsed", { date: date(key.lastUsedAt) })}</span>}{" "}
              {key.revoked
                ? <Badge value="failed" label={t("keys.revoked")} />
                : <ConfirmButton label={t("keys.revoke")} confirmLabel={t("keys.confirmRevoke")} onConfirm={() => revoke(key.id)} />}
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice error={error} />
    </section>
  )
}

const Folders = ({ account }: { readonly account: KnownAccount }) => {
  const { t } = useI18n()
  const { client, known, remember } = useConsole()
  const [name, setName] = useState("")
  const { busy, error, run } = useAction()
  const listed = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/accounts/{accountId}/folders", { params: { path: { accountId: account.id } } })),
    [client, account.id, known.folders]
  )
  const folders = listed.value?.list ?? known.folders.filter((folder) => folder.accountId === account.id)
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const folder = await client.admin.createFolder(account.id, { name })
      remember((current) => ({ ...current, folders: [...current.folders, { ...folder, accountId: account.id }] }))
      setName("")
    })
  }
  return (
    <section aria-label={t("folders.title")}>
      <h3>{t("folders.title")}</h3>
      <form className="row-form" onSubmit={create}>
        <Field label={t("folders.name")}>
          {(id) => <input id={id} required value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <button type="submit" disabled={busy}>{t("folders.create")}</button>
      </form>
      {folders.length > 0 && (
        <ul className="plain">
          {folders.map((folder) => <li key={folder.id}>{folder.name} <code dir="ltr">{folder.id}</code></li>)}
        </ul>
      )}
      <ErrorNotice error={error} />
    </section>
  )
}

/** An assistant's status, read again every second while it is changing. */
export const AssistantStatus = ({ assistantId, initial }: { readonly assistantId: string; readonly initial?: string }) => {
  const { word } = useI18n()
  const { client, session } = useConsole()
  const [status, setStatus] = useState(initial)
  useEffect(() => {
    if (session.adminToken === undefined) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        const assistant = await client.admin.getAssistant(assistantId)
        if (stopped) return
        setStatus(assistant.status)
        if (assistant.status === "provisioning" || assistant.status === "deleting") timer = setTimeout(() => void poll(), 1000)
      } catch {
        if (!stopped) setStatus("unknown")
      }
    }
    void poll()
    return () => {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [assistantId, client, session.adminToken])
  if (status === undefined) return <Badge value="pending" label="…" />
  return <Badge value={status} label={word("status", status)} />
}

/** Who the model list is for: an account (creating its assistant) or an assistant (its settings). */
export type ModelsOf = { readonly accountId: string } | { readonly assistantId: string }

/** Models the account may use: the operator reads its plan's list by account or assistant, a key holder its own. */
export const useUsableModels = (of: ModelsOf) => {
  const { client, session } = useConsole()
  const owner = "accountId" in of ? of.accountId : of.assistantId
  return useLoad<ReadonlyArray<Model>>(
    async () => {
      const models = session.adminToken !== undefined
        ? "accountId" in of ? await client.admin.accountModels(of.accountId) : await client.admin.assistantModels(of.assistantId)
        : await client.models.list()
      return models.list.filter((model) => model.usable)
    },
    [client, session.adminToken, owner]
  )
}

const Assistants = ({ account }: { readonly account: KnownAccount }) => {
  const { t } = useI18n()
  const { client, known, remember } = useConsole()
  const models = useUsableModels({ accountId: account.id })
  const [name, setName] = useState("")
  const [model, setModel] = useState("")
  const { busy, error, run } = useAction()
  const listed = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/accounts/{accountId}/assistants", { params: { path: { accountId: account.id } } })),
    [client, account.id, known.assistants]
  )
  const assistants = listed.value?.list ?? known.assistants.filter((assistant) => assistant.accountId === account.id)
  const create = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const assistant = await client.admin.createAssistant(account.id, model === "" ? { name } : { name, model })
      remember((current) => ({ ...current, assistants: [...current.assistants, { id: assistant.id, name: assistant.name, accountId: account.id }] }))
      setName("")
    })
  }
  const remove = (assistantId: string) =>
    void run(async () => {
      await client.admin.deleteAssistant(assistantId)
    })
  return (
    <section aria-label={t("assistants.title")}>
      <h3>{t("assistants.title")}</h3>
      <form className="row-form" onSubmit={create}>
        <Field label={t("assistants.name")}>
          {(id) => <input id={id} required value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Field label={t("assistants.model")}>
          {(id) => (
            <select id={id} value={model} onChange={(event) => setModel(event.target.value)}>
              <option value="">{t("assistants.defaultModel")}</option>
              {(models.value ?? []).map((option) => <option key={option.key} value={option.key}>{option.name} ({option.company.title})</option>)}
            </select>
          )}
        </Field>
        <button type="submit" disabled={busy}>{t("assistants.create")}</button>
      </form>
      {assistants.length > 0 && (
        <ul className="plain">
          {assistants.map((assistant) => (
            <li key={assistant.id}>
              <a href={href({ view: "assistant", assistantId: assistant.id, tab: "documents" })}>{assistant.name}</a>{" "}
              <code dir="ltr">{assistant.id}</code> <AssistantStatus assistantId={assistant.id} />{" "}
              <a href={href({ view: "assistant", assistantId: assistant.id, tab: "settings" })}>{t("assistants.settings")}</a>{" "}
              <ConfirmButton label={t("action.delete")} confirmLabel={t("assistants.confirmDelete")} onConfirm={() => remove(assistant.id)} />
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice error={error ?? models.error} />
    </section>
  )
}

/** The month's usage from the cost ledger. */
const Usage = ({ accountId }: { readonly accountId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const usage = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/accounts/{accountId}/usage", { params: { path: { accountId } } })),
    [client, accountId]
  )
  if (usage.value === undefined) return null
  return <p className="muted small">{t("accounts.usage", { period: usage.value.period, turns: usage.value.turns, tokens: usage.value.totalTokens })}</p>
}

const AccountCard = ({ account }: { readonly account: KnownAccount }) => {
  const { t, date } = useI18n()
  const { client, remember } = useConsole()
  const { error, run } = useAction()
  const remove = () =>
    void run(async () => {
      await client.admin.deleteAccount(account.id)
      remember((known) => ({
        accounts: known.accounts.filter((item) => item.id !== account.id),
        keys: known.keys.filter((item) => item.accountId !== account.id),
        assistants: known.assistants.filter((item) => item.accountId !== account.id),
        folders: known.folders.filter((item) => item.accountId !== account.id)
      }))
    })
  return (
    <article className="card" aria-labelledby={`account-${account.id}`}>
      <header className="card-head">
        <h2 id={`account-${account.id}`}>{account.name}</h2>
        <span className="muted">
          <code dir="ltr">{account.id}</code> · {t("accounts.planIs", { plan: account.plan })} · {date(account.createdAt)}
        </span>
        <ConfirmButton label={t("accounts.delete")} confirmLabel={t("accounts.confirmDelete")} onConfirm={remove} />
      </header>
      <ErrorNotice error={error} />
      <Usage accountId={account.id} />
      <Retention accountId={account.id} />
      <div className="columns">
        <Keys account={account} />
        <Assistants account={account} />
        <Folders account={account} />
      </div>
    </article>
  )
}

export const Accounts = () => {
  const { t } = useI18n()
  const { client, known } = useConsole()
  // Read again whenever an account is created or deleted here.
  const listed = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/accounts", { params: { query: { limit: "100" } } })),
    [client, known.accounts]
  )
  // A server without the list route still shows the accounts created in this tab.
  const accounts: ReadonlyArray<KnownAccount> = listed.value?.list ?? known.accounts
  return (
    <>
      <h1>{t("accounts.title")}</h1>
      <p className="muted">{t("accounts.sessionNote")}</p>
      <CreateAccount />
      {listed.value !== undefined && listed.value.count > listed.value.list.length && (
        <p className="muted">{t("accounts.more", { shown: listed.value.list.length, count: listed.value.count })}</p>
      )}
      {accounts.map((account) => <AccountCard key={account.id} account={account} />)}
    </>
  )
}
