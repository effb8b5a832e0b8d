import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  // Served by the Dastyar server at /console (packages/server/src/Http/Console.ts).
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    // The budget that matters is checked by scripts/bundle-size.mjs (300 kB gzipped).
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      // The SDK imports node:fs only when given a file path, which the console never does.
      external: ["node:fs"]
    }
  }
})
