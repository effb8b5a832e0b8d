/**
 * The files `docs upload` sends: the paths given, with folders walked
 * recursively (hidden entries left out), each checked for what the server
 * would refuse so it is skipped with a reason instead of failing its request.
 */
import { maxFileBytes } from "@dastyar/sdk"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { refusalOf } from "./Sniff"

export interface Candidate {
  readonly file: string
  /** The document's name on the server (its path is the folder's name plus this). */
  readonly name: string
  readonly size: number
}

export interface Skipped {
  readonly file: string
  readonly reason: string
}

export interface Selection {
  readonly send: ReadonlyArray<Candidate>
  readonly skipped: ReadonlyArray<Skipped>
}

const headBytes = 4096
/** A zip's directory is at its end; a Word document's lists `word/document.xml` there. */
const tailBytes = 1024 * 1024

const readRange = async (handle: fs.FileHandle, position: number, length: number) => {
  const buffer = new Uint8Array(length)
  const { bytesRead } = await handle.read(buffer, 0, length, position)
  return buffer.subarray(0, bytesRead)
}

const sniff = async (file: string, size: number): Promise<string | undefined> => {
  const handle = await fs.open(file, "r")
  try {
    const head = await readRange(handle, 0, Math.min(headBytes, size))
    const tailStart = Math.max(0, size - tailBytes)
    const tail = await readRange(handle, tailStart, size - tailStart)
    return await refusalOf(head, tail)
  } finally {
    await handle.close()
  }
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/** Files under `dir`, sorted, hidden entries left out; symbolic links to folders are not followed. */
const walk = async (dir: string): Promise<Array<string>> => {
  const entries = await fs.readdir(dir, { withFileTypes: true })
  const files: Array<string> = []
  for (const entry of entries.sort((left, right) => left.name.localeCompare(right.name))) {
    if (entry.name.startsWith(".")) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) files.push(...await walk(full))
    else if (entry.isFile() || (entry.isSymbolicLink() && (await fs.stat(full)).isFile())) files.push(full)
  }
  return files
}

const expand = async (given: string): Promise<Array<string>> => {
  const stat = await fs.stat(given)
  return stat.isDirectory() ? walk(given) : [given]
}

export const selectFiles = (paths: ReadonlyArray<string>) =>
  Effect.tryPromise({
    try: async (): Promise<Selection> => {
      const send: Array<Candidate> = []
      const skipped: Array<Skipped> = []
      const byName = new Map<string, string>()
      for (const given of paths) {
        for (const file of await expand(given)) {
          const { size } = await fs.stat(file)
          const name = path.basename(file)
          const earlier = byName.get(name)
          const reason = size > maxFileBytes
            ? `${megabytes(size)}, over the 25 MB limit`
            : size === 0
            ? "empty"
            : earlier !== undefined
            // Documents are stored by folder and file name: a second one would replace the first.
            ? `same name as ${earlier}`
            : await sniff(file, size)
          if (reason === undefined) {
            byName.set(name, file)
            send.push({ file, name, size })
          } else {
            skipped.push({ file, reason })
          }
        }
      }
      return { send, skipped }
    },
    catch: (error) =>
      new CommandFailed({
        message: `cannot read the files to upload: ${error instanceof Error ? error.message : String(error)}`,
        exitCode: ExitCode.usage
      })
  })
