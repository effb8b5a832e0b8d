/** What the loader and the widget share on `window.DastyarWidget`. */
export interface MountOptions {
  /** The service's address, where `/widget.js` came from. */
  readonly base: string
  readonly connection: string
  /** The console's preview token (`data-preview-token`). */
  readonly previewToken?: string
  /** The shop's signed-in customer and its HMAC (`data-user-id`, `data-user-hash`). */
  readonly userId?: string
  readonly userHash?: string
}

declare global {
  interface Window {
    DastyarWidget?: WidgetGlobal
  }
}

export interface WidgetGlobal {
  /** Snippets met before the widget loaded. */
  queue: Array<MountOptions>
  mount?: (options: MountOptions) => void
  /** Removes a connection's widget from the page (the console's preview). */
  unmount?: (connection: string) => void
}
