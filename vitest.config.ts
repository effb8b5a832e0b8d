import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    globalSetup: ["scripts/vitest-global-setup.ts"],
    // Each test file starts the real service on a real database (PGlite needs ~10 s to boot).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Console output (the service's JSON log, child processes' output) is shown only for failed tests.
    silent: "passed-only",
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
