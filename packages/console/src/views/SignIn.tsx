/** Sign-in with the operator token or an account's API key, checked by one call to the API it opens. */
import { unwrap } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { makeClient, useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

type Kind = "operator" | "apiKey"

export const SignIn = () => {
  const { t, language } = useI18n()
  const { setSession } = useConsole()
  const [kind, setKind] = useState<Kind>("operator")
  const [token, setToken] = useState("")
  const { busy, error, run } = useAction()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = token.trim()
    void run(async () => {
      if (kind === "operator") {
        const client = makeClient({ adminToken: value }, language.code)
        await unwrap(client.raw.GET("/admin/v1/content/articles", { params: { query: { limit: "1" } } }))
        setSession({ adminToken: value })
      } else {
        await makeClient({ apiKey: value }, language.code).assistants.list()
        setSession({ apiKey: value })
      }
      location.hash = "#/"
    })
  }

  return (
    <section className="card narrow">
      <h1>{t("signIn.title")}</h1>
      <p>{t("signIn.intro")}</p>
      <form onSubmit={submit}>
        <fieldset>
          <legend>{t("signIn.kind")}</legend>
          <label className="inline">
            <input type="radio" name="kind" checked={kind === "operator"} onChange={() => setKind("operator")} />
            {t("signIn.operator")}
          </label>
          <label className="inline">
            <input type="radio" name="kind" checked={kind === "apiKey"} onChange={() => setKind("apiKey")} />
            {t("signIn.apiKey")}
          </label>
        </fieldset>
        <Field label={kind === "operator" ? t("signIn.operatorToken") : t("signIn.apiKeyValue")} hint={t("signIn.storage")}>
          {(id) => (
            <input id={id} type="password" autoComplete="off" required value={token} dir="ltr"
              onChange={(event) => setToken(event.target.value)} />
          )}
        </Field>
        <button type="submit" className="primary" disabled={busy || token.trim() === ""}>{t("signIn.submit")}</button>
      </form>
      <ErrorNotice error={error} />
    </section>
  )
}
