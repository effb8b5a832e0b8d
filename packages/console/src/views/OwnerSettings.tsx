/** A key holder's settings tab: the guide's first step (name, answer language, instructions) as a form of its own. */
import type { Assistant } from "@dastyar/sdk"
import { useState } from "react"
import { useI18n } from "../i18n"
import { StepAssistant } from "./FirstRun/StepAssistant"

export const OwnerSettings = ({ assistant, onSaved }: {
  readonly assistant: Assistant
  readonly onSaved: () => void
}) => {
  const { t } = useI18n()
  const [saved, setSaved] = useState(false)
  return (
    <section className="card" aria-labelledby="owner-settings-title">
      <h2 id="owner-settings-title">{t("settings.title")}</h2>
      <StepAssistant
        key={assistant.id}
        assistant={assistant}
        saveLabel={t("action.save")}
        onSaved={() => {
          setSaved(true)
          onSaved()
        }}
      />
      {saved && <p role="status" className="ok">{t("settings.saved")}</p>}
    </section>
  )
}
