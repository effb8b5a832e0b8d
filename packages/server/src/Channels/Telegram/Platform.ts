/** Telegram's Bot API: the secret token in a header, HTML messages of 4,096 characters, captions of 1,024. */
import type { BotPlatform } from "../BotPlatform"

export const platform: BotPlatform = {
  name: "telegram",
  label: "Telegram",
  apiBase: "telegramApiBase",
  secretIn: "header",
  markup: "html",
  messageLimit: 4096,
  captionLimit: 1024,
  productPhotos: true
}
