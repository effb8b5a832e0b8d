/**
 * Bale's Bot API as a local server: Telegram's protocol (`/bot<token>/<method>`,
 * `{ok, result, description, error_code}`), served by the Telegram fake with
 * Bale's bot. What Bale lacks (`secret_token`, `parse_mode`) the tests check
 * is never sent.
 */
import { startFakeTelegram } from "./FakeTelegram"

export const startFakeBale = (transcript: string) => startFakeTelegram(transcript, "shop_bale_bot")
