/** Step 1: the assistant's name, answer language and instructions, saved with the signed-in credentials. */
import type { Assistant } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../../context"
import { useI18n } from "../../i18n"
import { ErrorNotice, Field, useAction } from "../../ui"

/** Answer languages offered; another stored value stays selectable as it is. */
const answerLanguages = [{ code: "fa", name: "فارسی" }, { code: "en", name: "English" }] as const

export const StepAssistant = ({ assistant, onSaved, saveLabel }: {
  readonly assistant: Assistant
  readonly onSaved: (assistant: Assistant) => void
  /** The submit button's words; the guide's "Save and continue" by default. */
  readonly saveLabel?: string
}) => {
  const { t } = useI18n()
  const { client, session } = useConsole()
  const [name, setName] = useState(assistant.name)
  const [language, setLanguage] = useState(assistant.language ?? "")
  const [instruction, setInstruction] = useState(assistant.instruction ?? "")
  const { busy, error, run } = useAction()
  const save = (event: FormEvent) => {
    event.preventDefault()
    const change = {
      name: name.trim(),
      language: language === "" ? null : language,
      instruction: instruction.trim() === "" ? null : instruction.trim()
    }
    void run(async () => {
      // A key holder changes its own assistant through /v1; the operator through /admin/v1.
      const saved = session.apiKey !== undefined
        ? await client.assistants.update(assistant.id, change)
        : await client.admin.updateAssistant(assistant.id, change)
      onSaved(saved)
    })
  }
  const known = answerLanguages.some((option) => option.code === language)
  return (
    <form onSubmit={save} aria-describedby="step-assistant-intro">
      <p id="step-assistant-intro">{t("firstRun.assistant.intro")}</p>
      <Field label={t("assistants.name")}>
        {(id) => <input id={id} required maxLength={200} dir="auto" value={name} onChange={(event) => setName(event.target.value)} />}
      </Field>
      <Field label={t("firstRun.assistant.language")}>
        {(id) => (
          <select id={id} value={language} onChange={(event) => setLanguage(event.target.value)}>
            <option value="">{t("firstRun.assistant.languageAuto")}</option>
            {answerLanguages.map((option) => <option key={option.code} value={option.code} lang={option.code}>{option.name}</option>)}
            {!known && language !== "" && <option value={language}>{language}</option>}
          </select>
        )}
      </Field>
      <Field label={t("firstRun.assistant.instruction")} hint={t("firstRun.assistant.instructionHint")}>
        {(id) => <textarea id={id} rows={4} dir="auto" value={instruction} onChange={(event) => setInstruction(event.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || name.trim() === ""}>{saveLabel ?? t("firstRun.assistant.save")}</button>
      </div>
      <ErrorNotice error={error} />
    </form>
  )
}
