/**
 * What differs between the messengers that speak Telegram's Bot API protocol
 * (Telegram itself, Bale): one driver serves them all, reading its limits and
 * formatting from the platform's profile (`Telegram/Platform.ts`, `Bale/Platform.ts`).
 */
export type BotPlatformName = "telegram" | "bale"

export interface BotPlatform {
  readonly name: BotPlatformName
  /** For logs and error texts. */
  readonly label: string
  /** The `AppConfig` entry holding the API's base URL. */
  readonly apiBase: "telegramApiBase" | "baleApiBase"
  /**
   * Where the webhook's secret travels: Telegram echoes `setWebhook`'s `secret_token` in a header; a platform
   * without that header gets the secret as the webhook URL's last path segment.
   */
  readonly secretIn: "header" | "path"
  /** `html`: Telegram's HTML parse mode (text escaped); `plain`: the text as written. */
  readonly markup: "html" | "plain"
  /** Longest message text (after escaping), and longest photo caption. */
  readonly messageLimit: number
  readonly captionLimit: number
  /** Products as photos with a caption (the platform fetches the image URL itself), else as text messages. */
  readonly productPhotos: boolean
}
