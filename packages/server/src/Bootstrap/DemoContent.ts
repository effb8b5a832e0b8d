/**
 * What the demo assistant knows on a first start: two short shop policies
 * (English and Persian) and a handful of products, so a newcomer's first chat
 * has something to answer from ("Do you ship to Shiraz?", "کتری دارید؟").
 */
import { Products } from "@dastyar/domain"

export const demoDocuments: ReadonlyArray<{ readonly filename: string; readonly content: string }> = [
  {
    filename: "shop-policies.md",
    content: [
      "# Demo shop policies",
      "",
      "## Shipping",
      "We ship to every city in Iran, including Shiraz, Tabriz and Mashhad. Orders placed before 2 pm leave the warehouse the same working day.",
      "Delivery inside Tehran takes one to two working days; other cities take three to five working days. Orders over 5,000,000 rials ship free.",
      "",
      "## Returns",
      "You can return any unused item within 14 days of delivery for a full refund to your card.",
      "",
      "## Warranty",
      "Electric kettles carry a two-year warranty. Cookware carries a lifetime warranty against manufacturing defects.",
      "",
      "## Contact",
      "Call support at 021-8800-1234 from 9 am to 6 pm on working days, or write to support@demo-shop.example."
    ].join("\n")
  },
  {
    filename: "shop-policies-fa.md",
    content: [
      "# قوانین فروشگاه نمونه",
      "",
      "## ارسال",
      "به همهٔ شهرهای ایران از جمله شیراز، تبریز و مشهد ارسال داریم. تحویل در تهران یک تا دو روز کاری و در شهرستان‌ها سه تا پنج روز کاری طول می‌کشد.",
      "",
      "## بازگشت کالا",
      "کالای استفاده‌نشده را تا ۱۴ روز پس از تحویل می‌توانید بازگردانید.",
      "",
      "## ضمانت",
      "کتری‌های برقی دو سال ضمانت دارند."
    ].join("\n")
  }
]

const product = (externalId: string, fields: Omit<Products.ProductCreate, "externalId">): Products.ProductCreate => ({
  externalId: Products.ExternalId.make(externalId),
  ...fields
})

export const demoProducts: ReadonlyArray<Products.ProductCreate> = [
  product("teapot-blue", {
    title: "Ceramic teapot, blue, 1 l",
    category: "Kitchen",
    attributes: { color: "blue", capacityMl: 1000 },
    price: 890000,
    currency: "IRR",
    url: "https://demo-shop.example/p/teapot-blue"
  }),
  product("kettle-steel", {
    title: "Electric kettle, steel, 1.7 l",
    category: "Kitchen",
    attributes: { color: "steel", capacityMl: 1700 },
    price: 2400000,
    currency: "IRR",
    url: "https://demo-shop.example/p/kettle-steel"
  }),
  product("mug-set", {
    title: "Set of four coffee mugs",
    category: "Kitchen",
    price: 650000,
    currency: "IRR",
    url: "https://demo-shop.example/p/mug-set"
  }),
  product("samovar-fa", {
    title: "سماور برقی ۳ لیتری",
    category: "آشپزخانه",
    price: 5200000,
    currency: "IRR",
    url: "https://demo-shop.example/p/samovar"
  })
]
