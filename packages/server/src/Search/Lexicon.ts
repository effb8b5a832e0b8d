/**
 * A small bilingual lexicon of common shop terms: words that customers and
 * shop documents use for the same thing, in English and Persian. Chunk
 * retrieval expands a query with it (an English question finds a passage
 * only written in Persian) and the offline answerer counts a synonym as the
 * word. Small on purpose: beyond it there is no notion of meaning offline.
 */
import { stem } from "./Stemmer"
import { wordsOf } from "./TextNormalization"

const groups: ReadonlyArray<string> = [
  "ship shipping shipment deliver delivery send post courier ارسال تحویل فرستادن فرستاد پست",
  "return returns refund exchange مرجوع مرجوعی بازگشت برگشت برگرداندن بازگرداندن تعویض عودت",
  "refund money-back بازپرداخت استرداد",
  "warranty guarantee گارانتی ضمانت",
  "price cost costs fee charge قیمت هزینه بها",
  "day days روز",
  "hour hours ساعت",
  "week weeks هفته",
  "month months ماه",
  "year years سال",
  "city cities شهر شهرستان",
  "province provinces استان",
  "country کشور",
  "free رایگان",
  "pay payment paid پرداخت",
  "installment installments اقساط قسط",
  "order orders سفارش",
  "phone call telephone تلفن تماس",
  "email mail ایمیل",
  "address نشانی آدرس",
  "open hours باز",
  "store shop فروشگاه",
  "product item goods کالا محصول جنس",
  "discount sale off تخفیف",
  "repair fix تعمیر",
  "cancel cancellation لغو انصراف",
  "track tracking پیگیری رهگیری",
  "receipt invoice فاکتور رسید",
  "book books کتاب",
  "card کارت",
  "gift هدیه",
  "damaged broken defective آسیب معیوب خراب"
]

/** Each group as stems of normal-form words. */
const stemGroups: ReadonlyArray<ReadonlyArray<string>> = groups.map((
  group
) => [...new Set(group.split(" ").flatMap((word) => wordsOf(word)).map(stem))])

const byStem = new Map<string, Array<string>>()
for (const group of stemGroups) {
  for (const root of group) byStem.set(root, [...(byStem.get(root) ?? []), ...group])
}

/** Stems meaning the same as `root` (itself included). */
export const synonymsOf = (root: string): ReadonlyArray<string> => [...new Set([root, ...(byStem.get(root) ?? [])])]

/** Words of the other language for a query's words (normal form, without the query's own), for expansion. */
export const translations = (words: ReadonlyArray<string>): ReadonlyArray<string> => {
  const own = new Set(words.map(stem))
  const added = new Set<string>()
  for (const word of words) {
    const latin = /[a-z]/.test(word)
    for (const synonym of byStem.get(stem(word)) ?? []) {
      if (own.has(synonym) || /[a-z]/.test(synonym) === latin) continue
      added.add(synonym)
    }
  }
  return [...added]
}
