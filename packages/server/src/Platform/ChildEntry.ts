/**
 * Where a child process's code is: the emitted `.js` next to the caller in the
 * compiled build, or the `.ts` source started through `TsEntry.mjs` when the
 * server runs from sources.
 */
import { fileURLToPath } from "node:url"

export interface ChildEntry {
  readonly modulePath: string
  readonly args: ReadonlyArray<string>
}

/** `name` is the entry module's file name without extension, beside `callerUrl` (`import.meta.url`). */
export const childEntry = (name: string, callerUrl: string): ChildEntry =>
  callerUrl.endsWith(".ts")
    ? {
      modulePath: fileURLToPath(new URL("./TsEntry.mjs", import.meta.url)),
      args: [new URL(`./${name}.ts`, callerUrl).href]
    }
    : { modulePath: fileURLToPath(new URL(`./${name}.js`, callerUrl)), args: [] }
