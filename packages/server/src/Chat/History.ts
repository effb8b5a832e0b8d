/**
 * The history sent with a turn: the newest messages that fit the token
 * budget, in order. Older ones are not dropped silently: the user's earlier
 * questions become a one-paragraph summary in the system prompt.
 */
export interface HistoryMessage {
  readonly role: "user" | "assistant"
  readonly content: string
  readonly tokens: number
}

export interface BoundedHistory {
  readonly messages: ReadonlyArray<HistoryMessage>
  readonly summary: string | undefined
}

const maxSummaryChars = 600

/** `messages` oldest first; keeps the newest ones whose tokens add up to at most `budget`. */
export const boundHistory = (messages: ReadonlyArray<HistoryMessage>, budget: number): BoundedHistory => {
  let used = 0
  let first = messages.length
  while (first > 0) {
    const message = messages[first - 1]
    if (message === undefined || used + message.tokens > budget) break
    used += message.tokens
    first--
  }
  const dropped = messages.slice(0, first).filter((message) => message.role === "user")
  if (dropped.length === 0) return { messages: messages.slice(first), summary: undefined }
  // Newest dropped questions first, as they matter most to what comes next.
  const asked: Array<string> = []
  let length = 0
  for (const message of [...dropped].reverse()) {
    const question = message.content.replace(/\s+/g, " ").trim().slice(0, 160)
    if (length + question.length > maxSummaryChars) break
    asked.unshift(question)
    length += question.length
  }
  return {
    messages: messages.slice(first),
    summary: asked.length === 0 ? undefined : `Earlier in this conversation the user asked: ${asked.join(" | ")}`
  }
}
