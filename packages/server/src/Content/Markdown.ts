/**
 * Article Markdown → HTML: rendered by `marked` (GitHub-flavoured), then
 * sanitised by `sanitize-html` with an allow-list, so that whatever an article
 * contains (raw HTML included) the site gets no script, no event handler, no
 * `javascript:`/`data:` link, no frame or form.
 */
import { Marked } from "marked"
import sanitizeHtml from "sanitize-html"

const marked = new Marked({ gfm: true, async: false })

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
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
}

/** Renders and sanitises; the same Markdown always gives the same HTML. */
export const renderMarkdown = (markdown: string): string =>
  sanitizeHtml(marked.parse(markdown, { async: false }), sanitizeOptions)
