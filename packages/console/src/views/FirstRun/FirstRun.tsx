/**
 * The first-run guide of one assistant: five steps in order (the assistant,
 * products, documents, a test question, going live), each of which can be
 * skipped and reopened; where the owner is stays in local storage.
 */
import type { Assistant } from "@dastyar/sdk"
import { useEffect, useRef, useState } from "react"
import { useConsole } from "../../context"
import { type MessageKey, useI18n } from "../../i18n"
import { href } from "../../route"
import { ErrorNotice } from "../../ui"
import { Chat } from "../Chat"
import { Documents } from "../Documents"
import { ProductImport } from "../ProductImport"
import { fresh, loadProgress, nextStep, previousStep, type Progress, saveProgress, type StepId, steps } from "./progress"
import { StepAssistant } from "./StepAssistant"
import { StepPublish } from "./StepPublish"
import { useAssistant } from "./useAssistant"

const stepTitle: Record<StepId, MessageKey> = {
  assistant: "firstRun.step.assistant",
  products: "firstRun.step.products",
  documents: "firstRun.step.documents",
  ask: "firstRun.step.ask",
  publish: "firstRun.step.publish"
}

/** Steps that call the assistant's own API (`/v1`), which only an API key opens. */
const keySteps: ReadonlyArray<StepId> = ["products", "documents", "ask"]

const StepBody = ({ step, assistant, onDone, onSaved }: {
  readonly step: StepId
  readonly assistant: Assistant
  readonly onDone: () => void
  readonly onSaved: (assistant: Assistant) => void
}) => {
  const { t } = useI18n()
  const { session } = useConsole()
  if (keySteps.includes(step) && session.apiKey === undefined) return <p className="card note">{t("firstRun.needKey")}</p>
  switch (step) {
    case "assistant":
      return <StepAssistant assistant={assistant} onSaved={onSaved} />
    case "products":
      return (
        <>
          <p>{t("firstRun.products.intro")}</p>
          <ProductImport assistantId={assistant.id} onImported={onDone} />
        </>
      )
    case "documents":
      return (
        <>
          <p>{t("firstRun.documents.intro")}</p>
          <Documents assistantId={assistant.id} onReady={onDone} />
        </>
      )
    case "ask":
      return (
        <>
          <p>{t("firstRun.ask.intro")}</p>
          <Chat assistantId={assistant.id} onAnswered={onDone} />
        </>
      )
    case "publish":
      return <StepPublish assistantId={assistant.id} title={assistant.name} />
  }
}

export const FirstRun = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, number } = useI18n()
  const loaded = useAssistant(assistantId)
  const [progress, setProgress] = useState<Progress>(() => ({ ...(loadProgress(assistantId) ?? fresh), closed: false }))
  const heading = useRef<HTMLHeadingElement>(null)
  const update = (change: (current: Progress) => Progress) =>
    setProgress((current) => {
      const next = change(current)
      saveProgress(assistantId, next)
      return next
    })
  useEffect(() => saveProgress(assistantId, progress), [])
  // A new step is announced by moving focus to its heading.
  const focusHeading = () => requestAnimationFrame(() => heading.current?.focus())
  const go = (step: StepId | undefined) => {
    if (step === undefined) return
    update((current) => ({ ...current, current: step }))
    focusHeading()
  }
  const mark = (step: StepId, state: "done" | "skipped") =>
    update((current) => ({
      ...current,
      // A step once done stays done when it is skipped on a later visit.
      states: { ...current.states, [step]: current.states[step] === "done" ? "done" : state }
    }))
  const close = () => {
    update((current) => ({ ...current, closed: true }))
    location.hash = href({ view: "assistant", assistantId, tab: "documents" })
  }
  const step = progress.current
  const position = steps.indexOf(step)
  const after = nextStep(step)
  const finished = steps.every((candidate) => progress.states[candidate] !== undefined)
  const assistant = loaded.value
  return (
    <>
      <h1>{t("firstRun.title", { name: assistant?.name ?? "…" })}</h1>
      <p className="muted">{t("firstRun.intro")}</p>
      <ErrorNotice error={loaded.error} />
      <div className="first-run">
        <nav aria-label={t("firstRun.steps")}>
          <ol className="steps">
            {steps.map((candidate, index) => {
              const state = progress.states[candidate]
              return (
                <li key={candidate} data-state={state ?? "todo"}>
                  <button type="button" aria-current={candidate === step ? "step" : undefined} onClick={() => go(candidate)}>
                    <span className="step-number" aria-hidden="true">{number(index + 1)}</span>
                    <span>{t(stepTitle[candidate])}</span>
                    <small className="muted">{t(state === undefined ? "firstRun.status.todo" : `firstRun.status.${state}`)}</small>
                  </button>
                </li>
              )
            })}
          </ol>
        </nav>
        <section className="card step" aria-labelledby="step-title" data-step={step}>
          <p className="muted small">{t("firstRun.stepOf", { n: position + 1, total: steps.length })}</p>
          <h2 id="step-title" ref={heading} tabIndex={-1}>{t(stepTitle[step])}</h2>
          {assistant !== undefined && (
            <StepBody
              key={step}
              step={step}
              assistant={assistant}
              onDone={() => mark(step, "done")}
              onSaved={() => {
                mark("assistant", "done")
                void loaded.reload()
                go(after)
              }}
            />
          )}
          <div className="actions step-actions">
            <button type="button" disabled={position === 0} onClick={() => go(previousStep(step))}>{t("firstRun.back")}</button>
            {progress.states[step] !== "done" && (
              <button type="button" onClick={() => { mark(step, "skipped"); go(after) }}>{t("firstRun.skip")}</button>
            )}
            {after !== undefined && progress.states[step] === "done" && (
              <button type="button" className="primary" onClick={() => go(after)}>{t("firstRun.next")}</button>
            )}
            {after === undefined && (
              <button type="button" className="primary" onClick={() => { mark(step, "done"); close() }}>{t("firstRun.finish")}</button>
            )}
            <button type="button" className="link" onClick={close}>{t("firstRun.close")}</button>
          </div>
          {finished && <p role="status" className="ok">{t("firstRun.finished")}</p>}
        </section>
      </div>
    </>
  )
}
