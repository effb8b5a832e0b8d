/**
 * Attachments of a turn, judged by their bytes: voice notes must be audio
 * (Ogg/Opus, MP3, M4A, WAV, WebM, FLAC…) and go to the transcription
 * provider; images must be JPEG, PNG, WebP or GIF and reach models that read
 * images as `data:` URLs. The bytes themselves are never stored.
 */
import { Chat } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import { fileTypeFromBuffer } from "file-type"
import { Transcriber } from "../Transcription/Transcriber"
import type { TurnAttachment } from "./ChatTurns"

const imageTypes = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"])
/** Recorders often put audio in a video container (WebM, MP4/M4A, 3GP). */
const audioContainers = new Set(["video/webm", "video/mp4", "video/3gpp", "video/ogg", "application/ogg"])

export interface ReadAttachments {
  readonly transcripts: ReadonlyArray<string>
  /** `data:` URLs of the images. */
  readonly images: ReadonlyArray<string>
  /** What the user message row records: kind, type and size of each attachment. */
  readonly meta: ReadonlyArray<{ readonly kind: Chat.AttachmentKind; readonly mime: string; readonly bytes: number }>
}

const sniff = (bytes: Uint8Array) =>
  Effect.promise(() => fileTypeFromBuffer(bytes)).pipe(
    Effect.map((type) => type?.mime ?? "application/octet-stream")
  )

/** Checks every attachment, then transcribes the voice notes. */
export const readAttachments = Effect.fn("Chat.readAttachments")(function*(
  attachments: ReadonlyArray<TurnAttachment>,
  acceptVoice: boolean
) {
  if (attachments.some((attachment) => attachment.kind === "voice") && !acceptVoice) {
    return yield* new Chat.VoiceDisabled()
  }
  const checked = yield* Effect.forEach(attachments, (attachment) =>
    Effect.gen(function*() {
      const size = attachment.bytes.byteLength
      if (size === 0 || size > Chat.maxAttachmentBytes) return yield* new Chat.AttachmentInvalid()
      const mime = yield* sniff(attachment.bytes)
      const fits = attachment.kind === "image"
        ? imageTypes.has(mime)
        : mime.startsWith("audio/") || audioContainers.has(mime)
      if (!fits) return yield* new Chat.AttachmentInvalid()
      return { attachment, mime }
    }))
  const transcriber = yield* Transcriber
  const transcripts = yield* Effect.forEach(
    checked.filter(({ attachment }) => attachment.kind === "voice"),
    ({ attachment, mime }, index) =>
      transcriber.transcribe({
        bytes: attachment.bytes,
        filename: attachment.filename ?? `voice-${index + 1}.${mime.split("/")[1] ?? "ogg"}`,
        mimeType: mime
      }).pipe(
        Effect.map(({ text }) => text.trim()),
        Effect.tapError((error) =>
          Effect.logWarning("voice note not transcribed").pipe(
            Effect.annotateLogs({ reason: error.reason, error: error.message })
          )
        ),
        // No provider configured means this service takes no voice, as if `acceptVoice` were off: a 400 that
        // retrying never changes. The provider refusing these bytes is the request's fault (400, like an unreadable
        // image); a provider that is down or slow is ours (503, retry or send text).
        Effect.mapError((error) =>
          error.reason === "not_configured"
            ? new Chat.VoiceDisabled()
            : error.transient
            ? new Chat.TranscriptionUnavailable()
            : new Chat.AttachmentInvalid()
        )
      )
  )
  return {
    transcripts: transcripts.filter((text) => text.length > 0),
    images: checked
      .filter(({ attachment }) => attachment.kind === "image")
      .map(({ attachment, mime }) => `data:${mime};base64,${Buffer.from(attachment.bytes).toString("base64")}`),
    meta: checked.map(({ attachment, mime }) => ({ kind: attachment.kind, mime, bytes: attachment.bytes.byteLength }))
  } satisfies ReadAttachments
})
