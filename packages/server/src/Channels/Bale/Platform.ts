/**
 * Bale's Bot API (`tapi.bale.ai`) follows Telegram's methods and update shape,
 * with fewer options: `setWebhook` takes only the URL (no `secret_token`, so
 * no secret header: the hook URL carries the secret in its path), and
 * `sendMessage` has no HTML parse mode (text goes as written). Messages are
 * kept under 4,000 characters, a little below Telegram's limit, since Bale
 * documents none of its own.
 */
import type { BotPlatform } from "../BotPlatform"

export const platform: BotPlatform = {
  name: "bale",
  label: "Bale",
  apiBase: "baleApiBase",
  secretIn: "path",
  markup: "plain",
  messageLimit: 4000,
  captionLimit: 1024,
  productPhotos: false
}
