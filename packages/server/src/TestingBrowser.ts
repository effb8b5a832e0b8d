/**
 * How the browser tests (the console's and the widget's) start Debian's
 * Chromium through playwright-core: one set of flags, so that a flag this
 * machine needs is added in one place. `CHROMIUM_PATH` points at another build.
 */
export const chromiumLaunchOptions = (): { readonly executablePath: string; readonly args: Array<string> } => ({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic"
  ]
})
