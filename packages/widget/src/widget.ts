/**
 * The website widget: a launcher button and a chat panel in an open shadow
 * root, for each connection the page's snippets name. The conversation is the
 * visitor's (a signed token kept in `localStorage` per connection), so a
 * reload or the next page continues it.
 */
import { client, type Config, type Message, type Problem, ProblemError } from "./api"
import type { MountOptions, WidgetGlobal } from "./global"
import { type Language, localDigits, strings } from "./strings"
import { css } from "./style"
import { bubble, chatIcon, extras, h, votes } from "./view"

const storage = {
  get: (key: string) => {
    try {
      return localStorage.getItem(key)
    } catch {
      return null
    }
  },
  set: (key: string, value: string) => {
    try {
      localStorage.setItem(key, value)
    } catch {
      // Storage refused (private mode): the conversation lasts as long as the page.
    }
  }
}

const pageLanguage = (): Language | undefined =>
  document.documentElement.lang.toLowerCase().startsWith("fa")
    ? "fa"
    : undefined

const mounted = new Map<string, HTMLElement>()

const mount = (options: MountOptions) => {
  if (options.connection === "" || mounted.has(options.connection)) return
  const api = client(options)
  const keys = {
    visitor: `dastyar.widget.${options.connection}.visitor`,
    language: `dastyar.widget.${options.connection}.lang`
  }
  const stored = storage.get(keys.language)
  let language: Language = stored === "fa" || stored === "en" ? stored : pageLanguage() ?? "en"
  let config: Config | undefined
  let problem: Problem | undefined
  let visitorToken = storage.get(keys.visitor)
  let started = false
  let busy = false
  /** The visitor's message on its way: a conversation shown meanwhile (the panel's session arriving) keeps it. */
  let sending: HTMLElement | undefined

  const host = h("div", { id: `dastyar-widget-${options.connection}` })
  const shadow = host.attachShadow({ mode: "open" })
  const title = h("h2", { id: "title" })
  const languageButton = h("button", { type: "button", class: "lang" })
  const newButton = h("button", { type: "button", class: "new" })
  const closeButton = h("button", { type: "button", class: "close" }, "×")
  const alert = h("div", { class: "alert", role: "alert", hidden: "" })
  const log = h("ol", { class: "log" })
  const typingText = h("span", {})
  const typing = h(
    "div",
    { class: "typing", role: "status", hidden: "" },
    h("span", { class: "dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
    " ",
    typingText
  )
  const live = h("div", { class: "sr", "aria-live": "polite" })
  const label = h("label", { for: "input", class: "sr" })
  const input = h("textarea", { id: "input", rows: "1", maxlength: "2000" })
  const send = h("button", { type: "submit" })
  const form = h("form", {}, label, input, send)
  const panel = h(
    "section",
    { class: "panel", id: "panel", role: "dialog", "aria-labelledby": "title", hidden: "" },
    h("header", {}, title, languageButton, newButton, closeButton),
    alert,
    log,
    typing,
    live,
    form
  )
  const launcher = h("button", {
    type: "button",
    class: "launcher",
    "aria-expanded": "false",
    "aria-controls": "panel"
  })
  launcher.append(chatIcon())
  const root = h("div", { class: "root" }, launcher, panel)
  shadow.append(h("style", {}, css), root)

  const words = () => strings[language]

  /** Words, direction and digits follow the language; the messages already shown stay as written. */
  const render = () => {
    const w = words()
    root.setAttribute("lang", language)
    root.setAttribute("dir", language === "fa" ? "rtl" : "ltr")
    title.textContent = config?.title ?? ""
    launcher.setAttribute("aria-label", config === undefined ? w.open : `${w.open}: ${config.title}`)
    languageButton.textContent = w.switchLanguage
    languageButton.setAttribute("aria-label", w.switchLanguageLabel)
    newButton.textContent = w.newConversation
    closeButton.setAttribute("aria-label", w.close)
    label.textContent = w.message
    send.textContent = w.send
    typingText.textContent = w.typing
    if (config !== undefined) root.style.setProperty("--accent", config.colour)
    showProblem(problem)
  }

  const showProblem = (next: Problem | undefined) => {
    problem = next
    alert.hidden = next === undefined
    alert.textContent = next === undefined || next === "visitor" ? "" : localDigits(language, words()[next])
  }

  /** The answer's 👍/👎, when the service said which stored answer it is. */
  const rateable = (item: HTMLElement, messageId: string | undefined) => {
    if (messageId === undefined) return
    item.append(
      votes(
        words(),
        (rating, comment) =>
          api.feedback(visitorToken ?? "", messageId, rating, comment).catch((error: unknown) => {
            showProblem(error instanceof ProblemError ? error.problem : "unavailable")
            throw error
          })
      )
    )
  }

  const scrollDown = () => {
    log.scrollTop = log.scrollHeight
  }

  const show = (messages: ReadonlyArray<Message>) => {
    log.replaceChildren()
    if (messages.length === 0 && config !== undefined && config.greeting !== "") {
      log.append(bubble("assistant", config.greeting))
    }
    for (const message of messages) {
      const item = bubble(message.role, message.text)
      if (message.role === "assistant") {
        extras(item, message, language, words())
        rateable(item, message.id)
      }
      log.append(item)
    }
    if (sending !== undefined) log.append(sending)
    scrollDown()
  }

  /** Continues the stored visitor (or becomes a new one when `fresh`), showing its conversation unless told not to. */
  const startSession = async (fresh: boolean, display = true) => {
    const token = fresh ? null : visitorToken
    // A refused customer identity (a wrong `data-user-hash`) leaves an anonymous visitor, not a broken widget.
    const session = await api.session(token).catch((error: unknown) =>
      error instanceof ProblemError && error.problem === "visitor" ? api.session(token, true) : Promise.reject(error)
    )
    visitorToken = session.visitorToken
    storage.set(keys.visitor, session.visitorToken)
    if (display) show(session.messages)
    started = true
  }

  const loaded = api.config().then(
    (value) => {
      config = value
      if (stored === null && pageLanguage() === undefined) language = value.defaultLanguage
      render()
    },
    (error: unknown) => {
      showProblem(error instanceof ProblemError ? error.problem : "unavailable")
    }
  )

  /** The session opening the panel starts: a message sent before it is ready waits for it rather than start another. */
  let opening: Promise<void> | undefined

  const open = async (isOpen: boolean) => {
    panel.hidden = !isOpen
    launcher.setAttribute("aria-expanded", String(isOpen))
    if (!isOpen) return launcher.focus()
    input.focus()
    await loaded
    if (!started && config !== undefined) {
      opening = startSession(false).catch((error: unknown) =>
        showProblem(error instanceof ProblemError ? error.problem : "unavailable")
      )
      await opening
    }
  }

  const ask = async (text: string, retried = false): Promise<void> => {
    if (visitorToken === null && !retried) await opening
    if (visitorToken === null) {
      const ready = await startSession(true, false).then(() => true, (error: unknown) => {
        showProblem(error instanceof ProblemError ? error.problem : "unavailable")
        return false
      })
      if (!ready) return
    }
    const answer = bubble("assistant", "")
    const answerText = answer.querySelector(".text") ?? answer
    let received = ""
    typing.hidden = false
    try {
      const reply = await api.send(visitorToken ?? "", text, (delta) => {
        if (received === "") log.append(answer)
        received += delta
        answerText.textContent = received
        scrollDown()
      })
      if (!answer.isConnected) log.append(answer)
      answerText.textContent = reply.text
      extras(answer, reply, language, words())
      rateable(answer, reply.messageId)
      live.textContent = reply.text
      showProblem(undefined)
    } catch (error) {
      answer.remove()
      const found = error instanceof ProblemError ? error.problem : "unavailable"
      // The token was refused (another connection's, or altered): become a new visitor once and ask again.
      if (found === "visitor" && !retried) {
        visitorToken = null
        return ask(text, true)
      }
      showProblem(found)
    } finally {
      typing.hidden = true
      scrollDown()
    }
  }

  launcher.addEventListener("click", () => void open(panel.hidden))
  closeButton.addEventListener("click", () => void open(false))
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") void open(false)
  })
  languageButton.addEventListener("click", () => {
    language = language === "fa" ? "en" : "fa"
    storage.set(keys.language, language)
    render()
  })
  newButton.addEventListener("click", async () => {
    if (visitorToken !== null) {
      await api.newConversation(visitorToken).catch(() => startSession(true))
    }
    show([])
    input.focus()
  })
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault()
      form.requestSubmit()
    }
  })
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    const text = input.value.trim()
    if (text === "" || busy) return
    busy = true
    // A message typed while the widget's settings still load waits for them instead of being refused.
    await loaded
    if (problem === "refused" || config === undefined) {
      busy = false
      return showProblem(problem ?? "refused")
    }
    send.disabled = true
    input.value = ""
    sending = bubble("user", text)
    log.append(sending)
    scrollDown()
    await ask(text)
    sending = undefined
    busy = false
    send.disabled = false
    input.focus()
  })

  render()
  document.body.append(host)
  mounted.set(options.connection, host)
  requestAnimationFrame(() => performance.mark("dastyar-widget-paint"))
}

const unmount = (connection: string) => {
  mounted.get(connection)?.remove()
  mounted.delete(connection)
}

const global: WidgetGlobal = window.DastyarWidget ??= { queue: [] }
global.mount = mount
global.unmount = unmount
for (const options of global.queue.splice(0)) mount(options)
