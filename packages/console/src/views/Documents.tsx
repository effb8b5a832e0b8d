/**
 * An assistant's knowledge base: drop or pick up to 10 files, follow each
 * file's job until it is ready or failed, and list, filter by folder and
 * delete the documents. Each file goes in its own upload request, so each has
 * its own state (fetch reports no upload progress in bytes).
 */
import { type DocumentIngestJob, maxFilesPerUpload, unwrap } from "@dastyar/sdk"
import { type DragEvent, type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { Badge, ConfirmButton, ErrorNotice, Field, useAction, useLoad } from "../ui"

interface Upload {
  readonly key: string
  readonly name: string
  readonly size: number
  readonly stage: "uploading" | DocumentIngestJob["status"]
  readonly reason?: string | undefined
}

export const Documents = ({ assistantId, onReady }: {
  readonly assistantId: string
  /** Called when an uploaded file's job ends ready (the first-run guide moves on). */
  readonly onReady?: () => void
}) => {
  const { t, word, bytes, number, date } = useI18n()
  const { client, known } = useConsole()
  const [folderId, setFolderId] = useState("")
  const [uploads, setUploads] = useState<ReadonlyArray<Upload>>([])
  const [dragging, setDragging] = useState(false)
  const upload = useAction()
  const removal = useAction()
  const documents = useLoad(
    () => client.documents.list(assistantId, folderId === "" ? {} : { folderId }),
    [client, assistantId, folderId]
  )

  // Recent jobs, failed ones with their reason, also after a reload of the page.
  const jobs = useLoad(
    () => unwrap(client.raw.GET("/v1/assistants/{assistantCode}/documents/jobs", { params: { path: { assistantCode: assistantId }, query: { limit: "10" } } })),
    [client, assistantId]
  )

  const update = (key: string, change: Partial<Upload>) =>
    setUploads((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)))

  const send = (files: ReadonlyArray<File>) => {
    if (files.length === 0) return
    if (files.length > maxFilesPerUpload) {
      upload.setError(new Error(t("documents.tooMany", { max: maxFilesPerUpload })))
      return
    }
    const batch = files.map((file, index) => ({ key: `${Date.now()}-${index}-${file.name}`, name: file.name, size: file.size, stage: "uploading" as const }))
    setUploads(batch)
    void upload.run(async () => {
      const options = folderId === "" ? {} : { folderId }
      await Promise.all(files.map(async (file, index) => {
        const key = batch[index]!.key
        try {
          const [job] = await client.documents.uploadFiles(assistantId, [file], options)
          if (job === undefined) return
          update(key, { stage: job.status })
          const final = await client.documents.waitForJob(assistantId, job.id, {
            initialDelayMs: 300,
            maxDelayMs: 2000,
            onUpdate: (seen: DocumentIngestJob) => update(key, { stage: seen.status })
          })
          update(key, { stage: final.status, reason: final.errorMessage ?? undefined })
          if (final.status === "ready") onReady?.()
        } catch (caught) {
          update(key, { stage: "failed", reason: caught instanceof Error ? caught.message : String(caught) })
        }
      }))
      await Promise.all([documents.reload(), jobs.reload()])
    })
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    send([...event.dataTransfer.files])
  }

  const remove = (fileId: string) =>
    void removal.run(async () => {
      await client.documents.delete(assistantId, [fileId])
      await documents.reload()
    })

  const folders = known.folders

  return (
    <section className="card" aria-labelledby="documents-title">
      <h2 id="documents-title">{t("documents.title")}</h2>
      <form className="row-form" onSubmit={(event: FormEvent) => event.preventDefault()}>
        <Field label={t("documents.folder")}>
          {(id) => (
            <select id={id} value={folderId} onChange={(event) => setFolderId(event.target.value)}>
              <option value="">{t("documents.root")}</option>
              {folders.map((folder) => <option key={folder.id} value={folder.id}>{folder.name}</option>)}
            </select>
          )}
        </Field>
      </form>
      <label
        className={`dropzone${dragging ? " dragging" : ""}`}
        onDragOver={(event) => { event.preventDefault(); setDragging(true) }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span>{t("documents.drop", { max: maxFilesPerUpload })}</span>
        <span className="pick" aria-hidden="true">{t("documents.choose")}</span>
        <input type="file" multiple data-testid="document-files"
          onChange={(event) => { send([...(event.target.files ?? [])]); event.target.value = "" }} />
      </label>
      <ErrorNotice error={upload.error} />
      {uploads.length > 0 && (
        <ul className="plain uploads" aria-live="polite" aria-label={t("documents.uploads")}>
          {uploads.map((item) => (
            <li key={item.key} data-stage={item.stage}>
              <span>{item.name}</span> <span className="muted">{bytes(item.size)}</span>{" "}
              <progress max={4} value={["uploading", "queued", "processing", "ready"].indexOf(item.stage) + 1} aria-label={item.name} />{" "}
              <Badge value={item.stage} label={word("job", item.stage)} />
              {item.reason !== undefined && <span className="error-text"> {item.reason}</span>}
            </li>
          ))}
        </ul>
      )}
      <h3>{t("documents.list")}</h3>
      <ErrorNotice error={documents.error ?? removal.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("documents.path")}</th>
              <th scope="col">{t("documents.size")}</th>
              <th scope="col">{t("documents.chunks")}</th>
              <th scope="col">{t("documents.created")}</th>
              <th scope="col"><span className="visually-hidden">{t("action.delete")}</span></th>
            </tr>
          </thead>
          <tbody>
            {(documents.value?.list ?? []).map((document) => (
              <tr key={document.fileId}>
                <td dir="auto">{document.path}</td>
                <td>{bytes(document.size)}</td>
                <td>{number(document.nChunks)}</td>
                <td>{date(document.createdAt * 1000)}</td>
                <td><ConfirmButton label={t("action.delete")} confirmLabel={t("documents.confirmDelete")} onConfirm={() => remove(document.fileId)} /></td>
              </tr>
            ))}
            {documents.value?.list.length === 0 && (
              <tr><td colSpan={5} className="muted">{t("documents.none")}</td></tr>
            )}
          </tbody>
        </table>
      </div>
      {jobs.value !== undefined && jobs.value.list.length > 0 && (
        <>
          <h3>{t("documents.jobs")}</h3>
          <ul className="plain" aria-label={t("documents.jobs")}>
            {jobs.value.list.map((job) => (
              <li key={job.id}>
                <span dir="auto">{job.path}</span> <Badge value={job.status} label={word("job", job.status)} />
                {job.errorMessage !== null && <span className="error-text">{job.errorMessage}</span>}
                <span className="muted small">{date(job.updatedAt)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
