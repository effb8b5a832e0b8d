/**
 * Progress on stderr, so stdout keeps only the result (and `--json` stays
 * parseable). On a terminal a bar is redrawn in place and notes are printed
 * above it; elsewhere (pipes, CI logs) only the notes are printed, one plain
 * line each.
 */
import * as Effect from "effect/Effect"

/** `[#######.............]`: `done` of `total` as a bar of `width` cells. */
export const bar = (done: number, total: number, width = 24): string => {
  const filled = total <= 0 ? width : Math.min(width, Math.round((done / total) * width))
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`
}

/** Whether stderr is an interactive terminal that understands cursor movement. */
export const isTerminal = (): boolean => process.stderr.isTTY === true && process.env.TERM !== "dumb"

const clearLine = "\r\x1b[2K"

export interface Progress {
  /** Moves the bar to `done` (of the total). */
  readonly update: (done: number) => Effect.Effect<void>
  /** A line that stays: above the bar on a terminal, on its own otherwise. */
  readonly note: (line: string) => Effect.Effect<void>
  /** Removes the bar. */
  readonly finish: Effect.Effect<void>
}

export const progressBar = (label: string, total: number): Progress => {
  if (!isTerminal()) {
    return {
      update: () => Effect.void,
      note: (line) => Effect.sync(() => void process.stderr.write(`${line}\n`)),
      finish: Effect.void
    }
  }
  let done = 0
  const draw = () => {
    const percent = total <= 0 ? 100 : Math.floor((done / total) * 100)
    process.stderr.write(`${clearLine}${label} ${bar(done, total)} ${percent}% ${done}/${total}`)
  }
  return {
    update: (value) =>
      Effect.sync(() => {
        done = value
        draw()
      }),
    note: (line) =>
      Effect.sync(() => {
        process.stderr.write(`${clearLine}${line}\n`)
        draw()
      }),
    finish: Effect.sync(() => void process.stderr.write(clearLine))
  }
}

/**
 * A block of lines, one per item, redrawn in place on a terminal (e.g. one per
 * uploading file); elsewhere each changed line is printed once as it changes.
 */
export interface LiveLines {
  readonly set: (key: string, line: string) => Effect.Effect<void>
  readonly finish: Effect.Effect<void>
}

export const liveLines = (): LiveLines => {
  const lines = new Map<string, string>()
  if (!isTerminal()) {
    return {
      set: (key, line) =>
        Effect.sync(() => {
          if (lines.get(key) === line) return
          lines.set(key, line)
          process.stderr.write(`${line}\n`)
        }),
      finish: Effect.void
    }
  }
  let drawn = 0
  const redraw = () => {
    // Back to the first line of the block, then rewrite every line of it.
    const up = drawn > 0 ? `\x1b[${drawn}A` : ""
    const block = Array.from(lines.values(), (line) => `${clearLine}${line}\n`).join("")
    process.stderr.write(`${up}${block}`)
    drawn = lines.size
  }
  return {
    set: (key, line) =>
      Effect.sync(() => {
        if (lines.get(key) === line) return
        lines.set(key, line)
        redraw()
      }),
    finish: Effect.void
  }
}
