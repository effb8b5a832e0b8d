/** Building the panel's parts: a message bubble with its sources and product cards. Plain DOM, text only. */
import type { Product, Source } from "./api"
import { formatPrice, type Language, type Strings } from "./strings"

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  element.append(...children)
  return element
}

const sourcesOf = (sources: ReadonlyArray<Source>, words: Strings) => {
  const details = h("details", {}, h("summary", {}, words.sources))
  for (const source of sources) {
    const passage = h("details", {}, h("summary", {}, source.path), h("p", {}, source.text))
    details.append(passage)
  }
  return details
}

const cardOf = (product: Product, language: Language, words: Strings) => {
  const card = h(
    "a",
    { class: "card", ...(product.url === null ? {} : { href: product.url, target: "_blank", rel: "noopener" }) },
    ...(product.imageUrl === null ? [] : [h("img", { src: product.imageUrl, alt: "", loading: "lazy" })]),
    h("span", {}, product.title),
    ...(product.price === null
      ? []
      : [h("span", { class: "price" }, formatPrice(language, product.price, product.currency))])
  )
  if (product.url !== null) card.setAttribute("aria-label", `${words.viewProduct}: ${product.title}`)
  return card
}

/** The extras under an answer: sources that expand to their passage, and product cards. */
export const extras = (
  bubble: HTMLElement,
  reply: { readonly sources: ReadonlyArray<Source>; readonly products?: ReadonlyArray<Product> },
  language: Language,
  words: Strings
) => {
  if (reply.sources.length > 0) bubble.append(sourcesOf(reply.sources, words))
  if (reply.products !== undefined && reply.products.length > 0) {
    bubble.append(h("div", { class: "cards" }, ...reply.products.map((product) => cardOf(product, language, words))))
  }
}

export const bubble = (role: "user" | "assistant", text: string) =>
  h("li", { class: `msg ${role}`, dir: "auto" }, h("span", { class: "text" }, text))

export const chatIcon = () => {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg")
  svg.setAttribute("viewBox", "0 0 24 24")
  svg.setAttribute("aria-hidden", "true")
  svg.innerHTML = `<path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 `
    + `0 0 1 2-2z"/>`
  return svg
}
