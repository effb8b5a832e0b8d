/** Small shared pieces: API errors, async actions, form fields. */
import { DastyarApiError } from "@dastyar/sdk"
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react"
import { useI18n } from "./i18n"

/** An API error as the API wrote it (already in the chosen language), with per-field messages. */
export const ErrorNotice = ({ error }: { readonly error: unknown }) => {
  const { t } = useI18n()
  if (error === undefined || error === null) return null
  if (error instanceof DastyarApiError) {
    return (
      <div role="alert" className="error">
        <p>{error.httpStatus === 404 && error.code === undefined ? t("error.missingRoute") : error.message}</p>
        {error.fields.length > 0 && (
          <ul>
            {error.fields.map((field) => (
              <li key={field.property}>
                <code>{field.property}</code>: {field.constraints.join("; ")}
              </li>
            ))}
          </ul>
        )}
      </div>
    )
  }
  return (
    <div role="alert" className="error">
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  )
}

/** Runs one async action at a time, keeping its error and whether it runs. */
export const useAction = () => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(undefined)
  const run = useCallback(async <A,>(action: () => Promise<A>): Promise<A | undefined> => {
    setBusy(true)
    setError(undefined)
    try {
      return await action()
    } catch (caught) {
      setError(caught)
      return undefined
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, setError, run }
}

/** Loads something on mount and when `deps` change; `reload` runs it again. */
export const useLoad = <A,>(load: () => Promise<A>, deps: ReadonlyArray<unknown>) => {
  const [value, setValue] = useState<A | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const [loading, setLoading] = useState(true)
  const latest = useRef(load)
  latest.current = load
  const reload = useCallback(async () => {
    setLoading(true)
    try {
      setValue(await latest.current())
      setError(undefined)
    } catch (caught) {
      setError(caught)
    } finally {
      setLoading(false)
    }
  }, [])
  useEffect(() => {
    void reload()
  }, deps)
  return { value, error, loading, reload, setValue }
}

/** A labelled input. */
export const Field = ({ label, hint, children }: {
  readonly label: string
  readonly hint?: string | undefined
  readonly children: (id: string) => ReactNode
}) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint !== undefined && <small className="hint">{hint}</small>}
    </div>
  )
}

/** A destructive button that asks once more, inline, before acting. */
export const ConfirmButton = ({ label, confirmLabel, onConfirm, disabled }: {
  readonly label: string
  readonly confirmLabel: string
  readonly onConfirm: () => void
  readonly disabled?: boolean
}) => {
  const { t } = useI18n()
  const [asking, setAsking] = useState(false)
  if (!asking) {
    return <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>{label}</button>
  }
  return (
    <span className="confirm" role="group" aria-label={confirmLabel}>
      <button type="button" className="danger" autoFocus onClick={() => { setAsking(false); onConfirm() }}>{confirmLabel}</button>
      <button type="button" onClick={() => setAsking(false)}>{t("action.cancel")}</button>
    </span>
  )
}

/** A status word with a colour, e.g. `active`, `ready`, `failed`. */
export const Badge = ({ value, label }: { readonly value: string; readonly label: string }) => (
  <span className={`badge badge-${value}`}>{label}</span>
)
