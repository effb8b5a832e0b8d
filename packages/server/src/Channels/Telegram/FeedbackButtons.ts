/**
 * 👍/👎 under a Bot API answer: an inline keyboard whose `callback_data`
 * names the vote and the stored answer (`fb:u:<id>`, `fb:d:<id>`, well under
 * the 64-byte limit). The reference needs no signature: a press arrives only
 * through the connection's authenticated hook, from the chat it was sent to,
 * and is recorded only against an answer of that chat's own conversation.
 */
import type { Conversations } from "@dastyar/domain"

const pattern = /^fb:([ud]):(\d{1,18})$/

export const feedbackKeyboard = (messageId: string) => ({
  inline_keyboard: [[
    { text: "👍", callback_data: `fb:u:${messageId}` },
    { text: "👎", callback_data: `fb:d:${messageId}` }
  ]]
})

/** The vote a button's data carries; none for data this service did not write. */
export const parseFeedback = (
  data: string
): { readonly rating: Conversations.Rating; readonly messageId: string } | undefined => {
  const match = pattern.exec(data)
  if (match === null || match[2] === undefined) return undefined
  return { rating: match[1] === "u" ? "up" : "down", messageId: match[2] }
}
