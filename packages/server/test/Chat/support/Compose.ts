/** The offline model's answer to one question over given passages, as the chat turn hands them to it. */
import type { Passage } from "../../../src/Chat/ChatModel"
import type { AnswerLanguage } from "../../../src/Chat/Language"
import { compose } from "../../../src/Chat/OfflineModel"

export interface ComposeOptions {
  readonly language?: AnswerLanguage
  readonly previousQuestion?: string | undefined
  readonly maxOutputTokens?: number
}

/** The whole reply (text and the passages it cites); passages are numbered in the order given. */
export const composeAnswer = (
  question: string,
  passages: ReadonlyArray<Omit<Passage, "n">>,
  options: ComposeOptions = {}
) =>
  compose({
    messages: [{ role: "user", content: question }],
    tools: [],
    maxOutputTokens: options.maxOutputTokens ?? 1024,
    reasoning: "none",
    grounding: {
      question,
      previousQuestion: options.previousQuestion,
      language: options.language ?? "en",
      passages: passages.map((passage, index) => ({ ...passage, n: index + 1 })),
      assistantName: "Shop",
      imagesAttached: 0
    }
  }, [])

/** The reply's text. */
export const answerText = (...args: Parameters<typeof composeAnswer>) => composeAnswer(...args).text
