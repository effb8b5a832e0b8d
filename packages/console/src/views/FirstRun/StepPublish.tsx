/**
 * Step 5: the widget snippet of the assistant's connections, to paste into the
 * shop's site, or the way to a messenger. Connections are the operator's
 * (`/admin/v1`): the operator sees each connection's `embedSnippet` and a link
 * to the Connections view; a key holder is told whom to ask.
 */
import { unwrap } from "@dastyar/sdk"
import { useState } from "react"
import { useConsole } from "../../context"
import { useI18n } from "../../i18n"
import { href } from "../../route"
import { ErrorNotice, useLoad } from "../../ui"

/** The snippet a connection carries, when its driver has one (the `web` driver's `embedSnippet`). */
const snippetOf = (connection: object): string | undefined =>
  "embedSnippet" in connection && typeof connection.embedSnippet === "string" ? connection.embedSnippet : undefined

/** A message naming the `</body>` tag, with the tag set left to right (in Persian it would read mirrored). */
const WithTag = ({ text }: { readonly text: string }) => {
  const [before, ...after] = text.split("</body>")
  return (
    <>
      {before}
      {after.length > 0 && <code dir="ltr">{"</body>"}</code>}
      {after.join("</body>")}
    </>
  )
}

const Snippet = ({ snippet }: { readonly snippet: string }) => {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="snippet">
      <p><WithTag text={t("firstRun.publish.snippet")} /></p>
      <pre dir="ltr" data-testid="embed-snippet"><code>{snippet}</code></pre>
      <button type="button" onClick={() => void copy()}>{copied ? t("firstRun.publish.copied") : t("firstRun.publish.copy")}</button>
    </div>
  )
}

const OperatorConnections = ({ assistantId }: { readonly assistantId: string }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const connections = useLoad(
    () => unwrap(client.raw.GET("/admin/v1/assistants/{assistantId}/connections", { params: { path: { assistantId } } })),
    [client, assistantId]
  )
  const snippets = (connections.value?.list ?? []).flatMap((connection) => {
    const snippet = snippetOf(connection)
    return snippet === undefined ? [] : [snippet]
  })
  return (
    <>
      <ErrorNotice error={connections.error} />
      {snippets.map((snippet) => <Snippet key={snippet} snippet={snippet} />)}
      {connections.value !== undefined && snippets.length === 0 && <p className="muted">{t("firstRun.publish.none")}</p>}
      <p><a href={href({ view: "assistant", assistantId, tab: "connections" })}>{t("firstRun.publish.connections")}</a></p>
    </>
  )
}

export const StepPublish = ({ assistantId }: { readonly assistantId: string }) => {
  const { t } = useI18n()
  const { session } = useConsole()
  return (
    <>
      <p>{t("firstRun.publish.intro")}</p>
      {session.adminToken !== undefined
        ? <OperatorConnections assistantId={assistantId} />
        : <p className="card note"><WithTag text={t("firstRun.publish.askOperator")} /></p>}
    </>
  )
}
