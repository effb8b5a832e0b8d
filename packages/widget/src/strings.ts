/** The widget's words in English and Persian, and numbers the Persian way (Persian digits, prices). */
export type Language = "en" | "fa"

export const strings = {
  en: {
    open: "Open chat",
    close: "Close chat",
    message: "Your message",
    send: "Send",
    newConversation: "New conversation",
    switchLanguage: "فارسی",
    switchLanguageLabel: "Switch to Persian",
    typing: "The assistant is typing…",
    sources: "Sources",
    viewProduct: "View product",
    you: "You",
    helpful: "Helpful answer",
    notHelpful: "Not a helpful answer",
    comment: "What was missing? (optional)",
    sendComment: "Send comment",
    thanks: "Thank you for your feedback.",
    quota: "The assistant is resting for now. Please try again later.",
    refused: "This chat is not available on this website.",
    busy: "Too many messages at once. Please wait a minute and try again.",
    unavailable: "The assistant can't answer right now. Please try again in a little while.",
    tooLong: "That message is too long. Please make it shorter."
  },
  fa: {
    open: "باز کردن گفتگو",
    close: "بستن گفتگو",
    message: "پیام شما",
    send: "ارسال",
    newConversation: "گفتگوی تازه",
    switchLanguage: "English",
    switchLanguageLabel: "تغییر زبان به انگلیسی",
    typing: "دستیار در حال نوشتن است…",
    sources: "منابع",
    viewProduct: "مشاهدهٔ محصول",
    you: "شما",
    helpful: "پاسخ مفید بود",
    notHelpful: "پاسخ مفید نبود",
    comment: "چه چیزی کم بود؟ (اختیاری)",
    sendComment: "ارسال نظر",
    thanks: "از بازخورد شما سپاسگزاریم.",
    quota: "دستیار فعلاً در دسترس نیست. لطفاً بعداً دوباره تلاش کنید.",
    refused: "این گفتگو در این وب‌سایت در دسترس نیست.",
    busy: "پیام‌ها زیاد است. لطفاً یک دقیقه صبر کنید و دوباره تلاش کنید.",
    unavailable: "دستیار اکنون نمی‌تواند پاسخ دهد. لطفاً کمی بعد دوباره تلاش کنید.",
    tooLong: "این پیام خیلی بلند است. لطفاً کوتاه‌ترش کنید."
  }
} satisfies Record<Language, Record<string, string>>

export type Strings = typeof strings.en

/** ASCII digits as Persian ones, for text the widget writes itself. */
export const persianDigits = (text: string) => text.replace(/\d/g, (digit) => "۰۱۲۳۴۵۶۷۸۹"[Number(digit)] ?? digit)

export const localDigits = (language: Language, text: string) => language === "fa" ? persianDigits(text) : text

/** A price with its currency in the visitor's language; the currency code as written when Intl does not know it. */
export const formatPrice = (language: Language, price: number, currency: string | null) => {
  const locale = language === "fa" ? "fa-IR" : "en-US"
  if (currency !== null) {
    try {
      return new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 2 }).format(price)
    } catch {
      return `${new Intl.NumberFormat(locale).format(price)} ${currency}`
    }
  }
  return new Intl.NumberFormat(locale).format(price)
}
