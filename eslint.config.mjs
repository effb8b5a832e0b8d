// Lint for the whole workspace: ESLint's and typescript-eslint's recommended rules, Effect's plugin, and the
// 120-character line limit. Formatting itself is dprint's (`pnpm format`); the import direction is
// dependency-cruiser's (`.dependency-cruiser.cjs`); both run under `pnpm lint`.
import js from "@eslint/js"
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/node_modules", "**/dist", "**/build", "packages/sdk/src/generated/**", "**/*.md"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mts", "**/*.mjs"],
    plugins: { "@effect": effect },
    rules: {
      "@effect/no-import-from-barrel-package": ["error", { packageNames: ["effect"] }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      // Control characters in patterns are deliberate here (binary sniffing, text cleaning).
      "no-control-regex": "off",
      "max-len": ["error", {
        code: 120,
        ignoreUrls: true,
        ignoreStrings: true,
        ignoreTemplateLiterals: true,
        ignoreRegExpLiterals: true
      }]
    }
  },
  {
    // The type checker already reports unknown names in TypeScript (and knows the DOM and Node globals).
    files: ["**/*.ts", "**/*.tsx"],
    rules: { "no-undef": "off" }
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly", performance: "readonly" }
    }
  }
)
