/** An assistant's settings (operator): model from the usable list, instruction, reasoning, personality, tools. */
import type { Assistant, AssistantUpdate } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction, useLoad } from "../ui"
import { AssistantStatus, useUsableModels } from "./Accounts"

const reasonings = ["none", "low", "medium", "high"] as const
const personalities = ["friendly", "professional", "playful", "technical", "formal", "custom"] as const
type Reasoning = (typeof reasonings)[number]
type Personality = (typeof personalities)[number]
const isReasoning = (value: string): value is Reasoning => reasonings.some((item) => item === value)
const isPersonality = (value: string): value is Personality => personalities.some((item) => item === value)

const Form = ({ assistant }: { readonly assistant: Assistant }) => {
  const { t, word } = useI18n()
  const { client } = useConsole()
  const models = useUsableModels({ assistantId: assistant.id })
  const [name, setName] = useState(assistant.name)
  const [model, setModel] = useState(assistant.model)
  const [instruction, setInstruction] = useState(assistant.instruction ?? "")
  const [reasoning, setReasoning] = useState<Reasoning>(isReasoning(assistant.reasoning) ? assistant.reasoning : "none")
  const [personality, setPersonality] = useState<Personality | "">(assistant.personality ?? "")
  const [language, setLanguage] = useState(assistant.language ?? "")
  const [productSearch, setProductSearch] = useState(assistant.productSearch)
  const [acceptVoice, setAcceptVoice] = useState(assistant.acceptVoice)
  const [saved, setSaved] = useState(false)
  const { busy, error, run } = useAction()
  const modelKeys = new Set((models.value ?? []).map((option) => option.key))
  const save = (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const update: AssistantUpdate = {
      name,
      model,
      instruction: instruction.trim() === "" ? null : instruction,
      reasoning,
      personality: personality === "" ? null : personality,
      language: language.trim() === "" ? null : language.trim(),
      productSearch,
      acceptVoice
    }
    void run(async () => {
      await client.admin.updateAssistant(assistant.id, update)
      setSaved(true)
    })
  }
  return (
    <form className="card" onSubmit={save} aria-labelledby="settings-title">
      <div className="card-head">
        <h2 id="settings-title">{t("settings.title")}</h2>
        <AssistantStatus assistantId={assistant.id} initial={assistant.status} />
      </div>
      <Field label={t("assistants.name")}>{(id) => <input id={id} required value={name} onChange={(event) => setName(event.target.value)} />}</Field>
      <Field label={t("assistants.model")}>
        {(id) => (
          <select id={id} value={model} onChange={(event) => setModel(event.target.value)}>
            {!modelKeys.has(model) && <option value={model}>{model}</option>}
            {(models.value ?? []).map((option) => <option key={option.key} value={option.key}>{option.name} ({option.company.title})</option>)}
          </select>
        )}
      </Field>
      <Field label={t("settings.instruction")}>{(id) => <textarea id={id} rows={4} value={instruction} onChange={(event) => setInstruction(event.target.value)} />}</Field>
      <Field label={t("settings.reasoning")}>
        {(id) => (
          <select id={id} value={reasoning} onChange={(event) => { const value = event.target.value; if (isReasoning(value)) setReasoning(value) }}>
            {reasonings.map((option) => <option key={option} value={option}>{word("reasoning", option)}</option>)}
          </select>
        )}
      </Field>
      <Field label={t("settings.personality")}>
        {(id) => (
          <select id={id} value={personality} onChange={(event) => { const value = event.target.value; setPersonality(isPersonality(value) ? value : "") }}>
            <option value="">—</option>
            {personalities.map((option) => <option key={option} value={option}>{word("personality", option)}</option>)}
          </select>
        )}
      </Field>
      <Field label={t("settings.language")} hint={t("settings.languageHint")}>{(id) => <input id={id} dir="ltr" value={language} onChange={(event) => setLanguage(event.target.value)} />}</Field>
      <label className="inline"><input type="checkbox" checked={productSearch} onChange={(event) => setProductSearch(event.target.checked)} /> {t("settings.productSearch")}</label>
      <label className="inline"><input type="checkbox" checked={acceptVoice} onChange={(event) => setAcceptVoice(event.target.checked)} /> {t("settings.acceptVoice")}</label>
      <div className="actions"><button type="submit" className="primary" disabled={busy}>{t("action.save")}</button></div>
      {saved && <p role="status" className="ok">{t("settings.saved")}</p>}
      <ErrorNotice error={error ?? models.error} />
    </form>
  )
}

export const Settings = ({ assistantId }: { readonly assistantId: string }) => {
  const { client } = useConsole()
  const assistant = useLoad(() => client.admin.getAssistant(assistantId), [client, assistantId])
  return (
    <>
      <ErrorNotice error={assistant.error} />
      {assistant.value !== undefined && <Form key={assistant.value.id} assistant={assistant.value} />}
    </>
  )
}
