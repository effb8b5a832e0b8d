/** The console's shell: language, sign-in, navigation and the view of the current address. */
import { useEffect, useMemo, useState } from "react"
import { ConsoleContext, makeClient, type Console } from "./context"
import { I18n, languageOf, languages, makeTranslator, useI18n } from "./i18n"
import { href, useRoute } from "./route"
import { clearAll, type Known, loadKnown, loadSession, saveKnown, saveSession, type Session } from "./session"
import { Accounts } from "./views/Accounts"
import { AssistantView } from "./views/AssistantView"
import { Assistants } from "./views/Assistants"
import { Content } from "./views/Content"
import { FirstRun } from "./views/FirstRun/FirstRun"
import { FirstRunGate } from "./views/FirstRun/Gate"
import { SignIn } from "./views/SignIn"

const languageKey = "dastyar.console.language"

const LanguagePicker = ({ value, onChange }: { readonly value: string; readonly onChange: (code: string) => void }) => {
  const { t } = useI18n()
  return (
    <label className="language">
      <span className="visually-hidden">{t("language.label")}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} aria-label={t("language.label")}>
        {languages.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>{language.name}</option>
        ))}
      </select>
    </label>
  )
}

export const App = () => {
  const [languageCode, setLanguageCode] = useState(() => localStorage.getItem(languageKey) ?? "en")
  const translator = useMemo(() => makeTranslator(languageOf(languageCode)), [languageCode])
  const [session, setSessionState] = useState<Session>(loadSession)
  const [known, setKnown] = useState<Known>(loadKnown)
  const route = useRoute()
  const { t, language } = translator

  useEffect(() => {
    document.documentElement.lang = language.code
    document.documentElement.dir = language.dir
    document.title = t("app.title")
    localStorage.setItem(languageKey, language.code)
  }, [language, t])

  const consoleValue = useMemo<Console>(() => ({
    client: makeClient(session, language.code),
    session,
    setSession: (next) => {
      saveSession(next)
      setSessionState(next)
    },
    known,
    remember: (update) =>
      setKnown((current) => {
        const next = update(current)
        saveKnown(next)
        return next
      }),
    signOut: () => {
      clearAll()
      setSessionState({})
      setKnown(loadKnown())
      location.hash = "#/"
    }
  }), [session, known, language.code])

  const signedIn = session.adminToken !== undefined || session.apiKey !== undefined
  const isOperator = session.adminToken !== undefined

  const view = (() => {
    switch (route.view) {
      case "accounts":
        return isOperator ? <Accounts /> : <Assistants />
      case "content":
        return isOperator ? <Content /> : <Assistants />
      case "assistants":
        return <Assistants />
      case "assistant":
        return route.tab === "start"
          ? <FirstRun key={route.assistantId} assistantId={route.assistantId} />
          : <AssistantView assistantId={route.assistantId} tab={route.tab} />
      case "home":
        return isOperator ? <Accounts /> : <FirstRunGate />
    }
  })()

  return (
    <I18n.Provider value={translator}>
      <ConsoleContext.Provider value={consoleValue}>
        <a className="skip" href="#main">{t("nav.skip")}</a>
        <header className="top">
          <a className="brand" href="#/">{t("app.name")}</a>
          {signedIn && (
            <nav aria-label={t("nav.label")}>
              {isOperator && <a href={href({ view: "accounts" })} aria-current={route.view === "accounts" || (route.view === "home" && isOperator) ? "page" : undefined}>{t("nav.accounts")}</a>}
              <a href={href({ view: "assistants" })} aria-current={route.view === "assistants" || route.view === "assistant" ? "page" : undefined}>{t("nav.assistants")}</a>
              {isOperator && <a href={href({ view: "content" })} aria-current={route.view === "content" ? "page" : undefined}>{t("nav.content")}</a>}
            </nav>
          )}
          <div className="top-end">
            <LanguagePicker value={language.code} onChange={setLanguageCode} />
            {signedIn && <button type="button" onClick={consoleValue.signOut}>{t("signIn.signOut")}</button>}
          </div>
        </header>
        <main id="main" tabIndex={-1}>
          {signedIn ? view : <SignIn />}
        </main>
      </ConsoleContext.Provider>
    </I18n.Provider>
  )
}
