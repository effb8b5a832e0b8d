/**
 * Article Markdown → HTML: rendered by `marked` (GitHub-flavoured), then
 * sanitised by `sanitize-html` with an allow-list, so that whatever an article
 * contains (raw HTML included) the site gets no script, no event handler, no
 * `javascript:`/`data:` link, no frame or form.
 * Both are loaded on the first article written, so a server that never
 * writes one does not pay for their memory.
 */
import * as Effect from "effect/Effect"
import type sanitizeHtml from "sanitize-html"

const sanitizeOptions = (defaultTags: ReadonlyArray<string>): sanitizeHtml.IOptions => ({
  allowedTags: [
    ...defaultTags,
    "img",
    "del",
    "ins",
    "sup",
    "sub",
    "details",
    "summary",
    "input"
  ],
  allowedAttributes: {
    a: ["href", "title", "name"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align", "colspan", "rowspan"],
    td: ["align", "colspan", "rowspan"],
    ol: ["start"],
    h1: ["id"],
    h2: ["id"],
    h3: ["id"],
    h4: ["id"],
    h5: ["id"],
    h6: ["id"],
    // GitHub-flavoured task lists render as disabled checkboxes.
    input: ["type", "checked", "disabled"]
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // Only the checkbox kind of input survives, always disabled.
    input: (tagName, attribs) =>
      attribs.type === "checkbox"
        ? {
          tagName,
          attribs: { type: "checkbox", disabled: "", ...(attribs.checked === undefined ? {} : { checked: "" }) }
        }
        : { tagName: "span", attribs: {} }
  }
})

let renderer: Promise<(markdown: string) => string> | undefined
const loadRenderer = () => (renderer ??= Promise.all([import("marked"), import("sanitize-html")]).then(
  ([{ Marked }, { default: sanitize }]) => {
    const marked = new Marked({ gfm: true, async: false })
    const options = sanitizeOptions(sanitize.defaults.allowedTags)
    return (markdown: string) => sanitize(marked.parse(markdown, { async: false }), options)
  }
))

/** Renders and sanitises; the same Markdown always gives the same HTML. */
export const renderMarkdown = (markdown: string): Effect.Effect<string> =>
  Effect.map(Effect.promise(loadRenderer), (render) => render(markdown))
