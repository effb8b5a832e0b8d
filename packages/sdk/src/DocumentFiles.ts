/**
 * The files `uploadFiles` takes (paths, `File`s, or named Buffers/Blobs), read
 * into named Blobs and checked against the server's 25 MB limit before any
 * request is sent. A path becomes a Blob backed by the file on disk, so large
 * files are streamed, not read into memory.
 */
import { Documents } from "@dastyar/domain"

const { maxFileBytes, maxFilesPerUpload } = Documents

export { maxFileBytes, maxFilesPerUpload }

/** Bytes with the file name the document gets (the name decides its path, not its kind). */
export interface NamedData {
  readonly name: string
  readonly data: Blob | Uint8Array
}

/** A file path (Node only), a `File`, or named bytes. */
export type FileInput = string | File | NamedData

export interface UploadPart {
  readonly name: string
  readonly size: number
  readonly blob: Blob
}

/** Thrown before anything is sent when a file exceeds the per-file limit. */
export class FileTooLargeError extends Error {
  override readonly name = "FileTooLargeError"
  constructor(readonly fileName: string, readonly size: number, readonly limit: number = maxFileBytes) {
    super(`${fileName} is ${size} bytes; the server accepts at most ${limit} bytes per file`)
  }
}

const baseName = (filePath: string) => filePath.split(/[/\\]/).filter((part) => part.length > 0).at(-1) ?? filePath

const fromPath = async (filePath: string): Promise<UploadPart> => {
  // Loaded on use, so the client still bundles for browsers when no path is passed.
  const fs = await import("node:fs")
  const { size } = await fs.promises.stat(filePath)
  return { name: baseName(filePath), size, blob: await fs.openAsBlob(filePath) }
}

const fromData = ({ name, data }: NamedData): UploadPart => {
  const blob = data instanceof Blob ? data : new Blob([data])
  return { name, size: blob.size, blob }
}

export const toUploadPart = (input: FileInput): Promise<UploadPart> | UploadPart =>
  typeof input === "string"
    ? fromPath(input)
    : input instanceof File
    ? { name: input.name, size: input.size, blob: input }
    : fromData(input)

/** Every input as a part, each within the size limit; throws `FileTooLargeError` for the first that is not. */
export const uploadParts = async (inputs: ReadonlyArray<FileInput>): Promise<Array<UploadPart>> => {
  const parts = await Promise.all(inputs.map(toUploadPart))
  const tooLarge = parts.find((part) => part.size > maxFileBytes)
  if (tooLarge !== undefined) throw new FileTooLargeError(tooLarge.name, tooLarge.size)
  return parts
}

/** The multipart body of one upload request. */
export const uploadForm = (parts: ReadonlyArray<UploadPart>, folderId: string | undefined): FormData => {
  const form = new FormData()
  if (folderId !== undefined) form.append("folderId", folderId)
  for (const part of parts) form.append("files", part.blob, part.name)
  return form
}
