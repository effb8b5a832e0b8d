/**
 * The line on which each product of a JSON feed starts, for error reports:
 * `JSON.parse` gives values but not positions, so this walks the text's
 * structure (strings, nesting) without building values.
 */

/** 1-based line of the character at `offset`. */
export const lineAt = (text: string, offset: number): number => {
  let line = 1
  for (let index = 0; index < offset && index < text.length; index++) if (text[index] === "\n") line++
  return line
}

/**
 * Start lines of the elements of the products array: the top-level array, or
 * the array under the top-level key `products`. The text must be valid JSON.
 */
export const elementLines = (text: string): Array<number> => {
  const lines: Array<number> = []
  let line = 1
  let depth = 0
  let inString = false
  let escaped = false
  let stringStart = 0
  let lastString = ""
  // Depth inside the products array once it is open; -1 before, -2 after it closed.
  let target = -1
  let expectElement = false
  let topLevelArray: boolean | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === "\n") line++
    if (inString) {
      if (escaped) escaped = false
      else if (char === "\\") escaped = true
      else if (char === "\"") {
        inString = false
        lastString = text.slice(stringStart, index + 1)
      }
      continue
    }
    if (char === " " || char === "\t" || char === "\r" || char === "\n") continue
    if (expectElement && depth === target && char !== "]") {
      lines.push(line)
      expectElement = false
    }
    switch (char) {
      case "\"":
        inString = true
        stringStart = index
        break
      case "[":
        depth++
        topLevelArray ??= depth === 1
        // In `{"products": [`, the last string before the bracket is its key.
        if (target === -1 && (topLevelArray ? depth === 1 : depth === 2 && JSON.parse(lastString) === "products")) {
          target = depth
          expectElement = true
        }
        break
      case "{":
        depth++
        topLevelArray ??= false
        break
      case "]":
      case "}":
        if (depth === target) target = -2
        depth--
        break
      case ",":
        if (depth === target) expectElement = true
        break
    }
  }
  return lines
}
