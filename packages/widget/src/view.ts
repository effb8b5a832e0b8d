/** Building the panel's parts: a message bubble with its sources and product cards. Plain DOM, text only. */
import type { Product, Rating, Source } from "./api"
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

/**
 * 👍/👎 under an answer, pressed as voted; a thumbs-down opens an optional comment box. `vote` sends the
 * vote (the last one counts) and rejects when the service refused it, leaving the buttons as they were.
 */
export const votes = (words: Strings, vote: (rating: Rating, comment?: string) => Promise<void>) => {
  const button = (label: string, icon: string) =>
    h("button", { type: "button", class: "vote", "aria-label": label, "aria-pressed": "false" }, icon)
  const up = button(words.helpful, "👍")
  const down = button(words.notHelpful, "👎")
  const box = h("textarea", { rows: "2", maxlength: "2000", "aria-label": words.comment, placeholder: words.comment })
  const form = h("form", { class: "comment", hidden: "" }, box, h("button", { type: "submit" }, words.sendComment))
  const status = h("span", { class: "thanks", role: "status" })
  const cast = (rating: Rating, comment?: string) =>
    vote(rating, comment).then(() => {
      up.setAttribute("aria-pressed", String(rating === "up"))
      down.setAttribute("aria-pressed", String(rating === "down"))
      form.hidden = rating === "up" || comment !== undefined
      status.textContent = rating === "up" || comment !== undefined ? words.thanks : ""
      if (!form.hidden) box.focus()
    }, () => undefined)
  up.addEventListener("click", () => void cast("up"))
  down.addEventListener("click", () => void cast("down"))
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const comment = box.value.trim()
    void cast("down", comment === "" ? undefined : comment)
  })
  return h("div", { class: "votes" }, up, down, status, form)
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
