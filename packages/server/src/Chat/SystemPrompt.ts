/**
 * The system prompt of a turn, from the assistant's settings: who it is, the
 * personality preset (`custom` adds none), the operator's instruction, the
 * answer language, the length cap, the grounding rules with the retrieved
 * passages, and a summary of history that no longer fits.
 */
import type { Assistants } from "@dastyar/domain"
import type { Passage } from "./ChatModel"
import { languageName } from "./Language"

type Preset = Exclude<typeof Assistants.Personality.Type, "custom">

const presets: Record<Preset, string> = {
  friendly: "Be warm and friendly, in a relaxed conversational tone.",
  professional: "Be professional, clear and courteous.",
  playful: "Be playful and light-hearted while staying accurate.",
  technical: "Be precise and technical: exact terms, numbers and steps.",
  formal: "Use a formal, respectful register."
}

export interface PromptInput {
  readonly name: string
  readonly instruction: string | null
  readonly personality: typeof Assistants.Personality.Type | null
  readonly language: string | null
  readonly maxOutputTokens: number
  readonly passages: ReadonlyArray<Passage>
  readonly productSearch: boolean
  readonly imagesUnseen: number
  readonly historySummary: string | undefined
}

export const systemPrompt = (input: PromptInput): string => {
  const lines: Array<string> = [`You are "${input.name}", an assistant answering this business's customers.`]
  if (input.personality !== null && input.personality !== "custom") lines.push(presets[input.personality])
  if (input.instruction !== null && input.instruction.trim().length > 0) {
    lines.push("", "Instructions from the business:", input.instruction.trim(), "")
  }
  lines.push(
    input.language === null || input.language.trim().length === 0
      ? "Answer in the language of the user's last message."
      : `Answer in ${languageName(input.language)}, whatever the language of the question.`,
    `Keep the answer within about ${input.maxOutputTokens} tokens.`,
    "Base facts about the business only on the knowledge passages below" +
      (input.productSearch ? " and on product search results" : "") +
      "; cite passages by their number, like [1]. If they do not contain the answer, say that you don't know instead of guessing."
  )
  if (input.productSearch) {
    lines.push(
      "To find products, call the search_products tool. When you show a product give its title, price with currency and link."
    )
  }
  if (input.imagesUnseen > 0) {
    lines.push("The user attached an image you cannot see; ask them to describe it if it matters.")
  }
  lines.push("", "Knowledge passages:")
  if (input.passages.length === 0) lines.push("(none matched this question)")
  for (const passage of input.passages) lines.push(`[${passage.n}] (${passage.path})`, passage.text.trim(), "")
  if (input.historySummary !== undefined) lines.push("", input.historySummary)
  return lines.join("\n").trim()
}
