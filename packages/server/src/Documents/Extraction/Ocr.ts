/**
 * Text in images by OCR: tesseract.js (WASM, in a worker thread) with the
 * English and Persian LSTM models shipped in `@tesseract.js-data/{eng,fas}`,
 * read from node_modules, so nothing is downloaded at run time. One worker
 * per server, created on first use and reused; images are read one at a time.
 * tesseract.js and image-size are loaded on the first image, not at start.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import type { Worker } from "tesseract.js"
import { permanent } from "../IngestFailure"
import type { ExtractionBudget } from "./Budget"

const require = createRequire(import.meta.url)

const languages = ["eng", "fas"] as const

/** How long the OCR worker outlives its last image. */
const idleWorkerMs = 60_000

/**
 * tesseract.js reads every language from one `langPath`, while each model
 * ships in its own package: a private directory of links to the gzipped LSTM
 * ("best_int") models in node_modules serves as that path.
 */
const linkTrainedData = () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-tessdata-"))
  for (const code of languages) {
    const packageDir = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`))
    fs.symlinkSync(
      path.join(packageDir, "4.0.0_best_int", `${code}.traineddata.gz`),
      path.join(directory, `${code}.traineddata.gz`)
    )
  }
  return directory
}

export class Ocr extends Effect.Service<Ocr>()("Ocr", {
  scoped: Effect.gen(function*() {
    let worker: Promise<Worker> | undefined
    const lock = yield* Effect.makeSemaphore(1)
    const langPath = yield* Effect.acquireRelease(
      Effect.sync(linkTrainedData),
      (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
    )
    const getWorker = () => {
      if (worker === undefined) {
        const started = import("tesseract.js").then(({ createWorker, OEM }) =>
          createWorker(languages.join("+"), OEM.LSTM_ONLY, {
            langPath,
            cacheMethod: "none",
            gzip: true,
            // Without a handler tesseract.js rethrows a failed job outside its promise, which would end the process.
            errorHandler: () => {}
          })
        )
        // A worker that failed to start is not kept; the next image tries again.
        started.catch(() => (worker = undefined))
        worker = started
      }
      return worker
    }

    /**
     * The worker (WASM and models, about 100 MB) ends after a minute without images and starts
     * again on the next one (a few seconds), so a server that read one image does not keep it for good.
     */
    let idleTimer: NodeJS.Timeout | undefined
    const stopWorker = () => {
      const running = worker
      worker = undefined
      void running?.then((w) => w.terminate()).catch(() => {})
    }
    const stopWhenIdle = () => {
      clearTimeout(idleTimer)
      idleTimer = setTimeout(stopWorker, idleWorkerMs).unref()
    }

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => clearTimeout(idleTimer)).pipe(
        Effect.zipRight(
          worker === undefined
            ? Effect.void
            : Effect.promise(async () => (await worker)?.terminate()).pipe(Effect.ignore)
        )
      )
    )

    /** Tesseract decodes the whole bitmap in memory: its size is read from the header first. */
    const checkPixels = (image: Uint8Array, budget: ExtractionBudget) =>
      Effect.tryPromise({
        try: () => import("image-size").then(({ imageSize }) => imageSize(image)),
        catch: (error) =>
          permanent(
            "corrupt_file",
            `the image cannot be read: ${error instanceof Error ? error.message : String(error)}`
          )
      }).pipe(
        Effect.flatMap(({ width, height }) =>
          width * height > budget.maxPixels
            ? Effect.fail(permanent("too_large", `the image has ${width}×${height} pixels, over ${budget.maxPixels}`))
            : Effect.void
        )
      )

    const recognize = Effect.fn("Ocr.recognize")(function*(image: Uint8Array, budget: ExtractionBudget) {
      yield* checkPixels(image, budget)
      // Inside the lock: no idle stop while an image is read, the countdown starts over after it.
      return yield* Effect.sync(() => clearTimeout(idleTimer)).pipe(
        Effect.zipRight(Effect.tryPromise({
          try: async () => {
            const result = await (await getWorker()).recognize(
              Buffer.from(image.buffer, image.byteOffset, image.byteLength)
            )
            // Tesseract marks right-to-left lines with direction marks; they are no text.
            return result.data.text.replace(/[\u200e\u200f]/g, "")
          },
          catch: (error) =>
            permanent(
              "corrupt_file",
              `the image cannot be read: ${error instanceof Error ? error.message : String(error)}`
            )
        })),
        Effect.ensuring(Effect.sync(stopWhenIdle)),
        lock.withPermits(1)
      )
    })

    return { recognize } as const
  })
}) {}
