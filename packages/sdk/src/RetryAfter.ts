/**
 * Reads `Retry-After` in whole seconds. The service sends delta-seconds; the
 * HTTP-date form is accepted too, since proxies in front of it may use it.
 */
export const retryAfterSeconds = (headers: Headers, now: number = Date.now()): number | undefined => {
  const value = headers.get("retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  if (/^\d+$/.test(value)) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}
