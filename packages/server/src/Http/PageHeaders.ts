/**
 * Headers of the two HTML pages the server serves itself (`/console`, `/docs`):
 * a Content-Security-Policy that allows only the page's own scripts and lets
 * no other site frame it, `X-Content-Type-Options: nosniff` and a referrer
 * policy that sends no path to other origins. The console holds the operator
 * token in sessionStorage and renders article HTML: a script injected into it
 * must not run.
 */
import { createHash } from "node:crypto"

/** `'sha256-…'` of an inline script, for `script-src`. */
export const scriptHash = (script: string) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`

const policy = (directives: Record<string, ReadonlyArray<string>>) =>
  Object.entries(directives).map(([name, sources]) => [name, ...sources].join(" ")).join("; ")

/** The headers for a page whose scripts are its own files and the given inline ones (by hash). */
export const pageHeaders = (inlineScriptHashes: ReadonlyArray<string> = []): Record<string, string> => ({
  "content-security-policy": policy({
    "default-src": ["'self'"],
    "script-src": ["'self'", ...inlineScriptHashes],
    // Style attributes in rendered HTML and the reference's own; styles cannot run code.
    "style-src": ["'self'", "'unsafe-inline'"],
    // Product images and article images live on the shops' own hosts.
    "img-src": ["'self'", "data:", "https:", "http:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"]
  }),
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY"
})
