/**
 * `/widget.js`: what a shop's snippet loads. It stays small and its address
 * never changes; it reads its own `<script>` tag and loads the widget itself
 * (a content-hashed file cached for a year) once per page, however many
 * snippets the page has.
 */
import type { MountOptions, WidgetGlobal } from "./global"

declare const __WIDGET_FILE__: string

const script = document.currentScript
if (script instanceof HTMLScriptElement) {
  const base = new URL(script.src).origin + new URL(script.src).pathname.replace(/\/widget\.js$/, "")
  const data = script.dataset
  const options: MountOptions = {
    base,
    connection: data.connection ?? "",
    ...(data.previewToken === undefined ? {} : { previewToken: data.previewToken }),
    ...(data.userId === undefined ? {} : { userId: data.userId }),
    ...(data.userHash === undefined ? {} : { userHash: data.userHash })
  }
  const global: WidgetGlobal = window.DastyarWidget ??= { queue: [] }
  if (global.mount !== undefined) global.mount(options)
  else {
    global.queue.push(options)
    if (global.queue.length === 1) {
      const app = document.createElement("script")
      app.src = `${base}/widget/${__WIDGET_FILE__}`
      app.async = true
      document.head.append(app)
    }
  }
}
