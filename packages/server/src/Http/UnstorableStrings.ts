/**
 * The one rule for the characters no string the API takes may hold: NUL (which
 * Postgres refuses in text and JSON) and UTF-16 surrogates without their pair
 * (which JSON storage refuses). They are never stored, so they are refused
 * everywhere: path, query and JSON body, each named in `ValidationFailed.fields`.
 */
import { Errors, I18n } from "@dastyar/domain"
import * as Data from "effect/Data"

const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Whether a JSON text may hold an unstorable character once parsed. JSON cannot
 * carry a raw NUL in a string, and UTF-8 decoding turns a lone surrogate into
 * U+FFFD, so only a `\u0000` or `\uD800`–`\uDFFF` escape can produce one: a body
 * without such an escape (nearly all of them) needs no walk. False positives
 * (an escaped backslash before `u0000`) only cost the walk.
 */
export const mayHoldUnstorable = (json: string): boolean =>
  /\\u(?:0000|d[89a-f])/i.test(json) || /[\u0000\uD800-\uDFFF]/.test(json)

/** A position in a JSON body: its key and its parent, so a deep body costs no path copies. */
interface BodyPosition {
  readonly key: string
  readonly parent: BodyPosition | undefined
}

const propertyOf = (parent: BodyPosition | undefined, key: string | undefined): string => {
  const keys: Array<string> = key === undefined ? [] : [key]
  for (let at = parent; at !== undefined; at = at.parent) keys.push(at.key)
  return keys.length === 0 ? "body" : keys.reverse().join(".")
}

/** An array or object being walked: the next element to look at, and where the container sits. */
type Frame =
  | { readonly items: ReadonlyArray<unknown>; next: number; readonly position: BodyPosition | undefined }
  | {
    readonly object: object
    readonly keys: ReadonlyArray<string>
    next: number
    readonly position: BodyPosition | undefined
  }

const frameOf = (value: object, position: BodyPosition | undefined): Frame =>
  Array.isArray(value) ?
    { items: value, next: 0, position } :
    { object: value, keys: Object.keys(value), next: 0, position }

/**
 * `fields` names of the strings (object keys included) in a parsed JSON body
 * that hold unstorable characters. A loop over one frame per array or object,
 * not recursion (a hostile body may nest thousands of levels deep), and nothing
 * allocated per element: a body of millions of numbers costs one frame.
 */
export const unstorableInJson = (body: unknown): Array<string> => {
  const found: Array<string> = []
  if (typeof body === "string") return unstorable.test(body) ? ["body"] : found
  if (typeof body !== "object" || body === null) return found
  const stack: Array<Frame> = [frameOf(body, undefined)]
  // An element's name (`a.3.b`) is built only when it is reported or becomes a parent.
  const visit = (value: unknown, parent: BodyPosition | undefined, key: string | number) => {
    if (typeof value === "string") {
      if (unstorable.test(value)) found.push(propertyOf(parent, String(key)))
    } else if (typeof value === "object" && value !== null) {
      stack.push(frameOf(value, { key: String(key), parent }))
    }
  }
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    if ("items" in frame) {
      if (frame.next === frame.items.length) stack.pop()
      else visit(frame.items[frame.next], frame.position, frame.next++)
    } else if (frame.next === frame.keys.length) {
      stack.pop()
    } else {
      const key = frame.keys[frame.next++] ?? ""
      if (unstorable.test(key)) found.push(propertyOf(frame.position, key))
      visit(Reflect.get(frame.object, key), frame.position, key)
    }
  }
  return found
}

/** The whole check of a JSON text: a scan of the text, and the walk only when the scan finds an escape. */
export const unstorableInJsonText = (text: string): Array<string> => {
  if (!mayHoldUnstorable(text)) return []
  try {
    return unstorableInJson(JSON.parse(text))
  } catch {
    // Unparsable: the reader of the body answers it (malformed JSON), not this rule.
    return []
  }
}

const decodeOrRaw = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Names of the path and query parameters that hold unstorable characters once
 * decoded; `names` gives a path segment's parameter name (`path` when unknown).
 */
export const unstorableInUrl = (url: string, names: (segments: ReadonlyArray<string>) => ReadonlyArray<string>) => {
  // Node's parser refuses control characters in the request line and reads it as latin1 (no surrogates):
  // only a percent-escape can decode to an unstorable character, so most URLs need no decoding at all.
  if (!url.includes("%")) return []
  const [path = "", query = ""] = url.split("?", 2)
  const segments = path.split("/")
  const parameters = names(segments)
  const found = segments.flatMap((segment, index) =>
    unstorable.test(decodeOrRaw(segment)) ? [parameters[index] ?? "path"] : []
  )
  for (const [key, value] of new URLSearchParams(query)) {
    if (unstorable.test(key) || unstorable.test(value)) found.push(key)
  }
  return found
}

/** The 400 naming each property once. */
export const refusal = (properties: ReadonlyArray<string>) =>
  new Errors.ValidationFailed({
    fields: Array.from(new Set(properties), (property) => ({
      property,
      constraints: [I18n.token("constraint.character")]
    }))
  })

/**
 * A JSON body holding unstorable characters, found when the body is read (after
 * authentication). Raised as a defect, because the readers' error channel is the
 * platform's `RequestError` (which the framework and the hooks turn into other
 * answers); the edge's error mapping turns it into `refusal(properties)`.
 */
export class UnstorableBody extends Data.TaggedClass("UnstorableBody")<{
  readonly properties: ReadonlyArray<string>
}> {}
