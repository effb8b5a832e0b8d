/**
 * Where a shop owner is in the first-run guide of one assistant, kept in
 * local storage (it outlives the tab, unlike the session): the step shown, what
 * each step came to, and whether the guide was closed.
 */
export const steps = ["assistant", "products", "documents", "ask", "publish"] as const
export type StepId = (typeof steps)[number]
export type StepState = "done" | "skipped"

export interface Progress {
  readonly current: StepId
  readonly states: Readonly<Partial<Record<StepId, StepState>>>
  /** Closed or finished: the console no longer opens the guide by itself. */
  readonly closed: boolean
}

export const fresh: Progress = { current: "assistant", states: {}, closed: false }

const keyOf = (assistantId: string) => `dastyar.console.firstRun.${assistantId}`

const isStep = (value: unknown): value is StepId => steps.some((step) => step === value)
const isState = (value: unknown): value is StepState => value === "done" || value === "skipped"
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The stored progress, or undefined when the guide never started for this assistant (the storage is the user's). */
export const loadProgress = (assistantId: string): Progress | undefined => {
  let value: unknown
  try {
    value = JSON.parse(localStorage.getItem(keyOf(assistantId)) ?? "null")
  } catch {
    return undefined
  }
  if (!isRecord(value) || !isStep(value.current)) return undefined
  const stored = isRecord(value.states) ? value.states : {}
  const states: Partial<Record<StepId, StepState>> = {}
  for (const step of steps) {
    const state = stored[step]
    if (isState(state)) states[step] = state
  }
  return { current: value.current, states, closed: value.closed === true }
}

export const saveProgress = (assistantId: string, progress: Progress) =>
  localStorage.setItem(keyOf(assistantId), JSON.stringify(progress))

/** The step after `step`, or undefined after the last. */
export const nextStep = (step: StepId): StepId | undefined => steps[steps.indexOf(step) + 1]
export const previousStep = (step: StepId): StepId | undefined => steps[steps.indexOf(step) - 1]
