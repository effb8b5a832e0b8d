import { expect, layer } from "@effect/vitest"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import { againstServer, rejectionOf, setupAccount, TestApp } from "./support/Server"

layer(TestApp(), { excludeTestServices: true })("promise client: synonyms", (it) => {
  it.effect("adds, lists, replaces and deletes an assistant's synonym sets", () =>
    againstServer(async (baseUrl) => {
      const { assistant, key } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      const set = await client.synonyms.add(assistant.id, { synonyms: ["گوشی", "موبایل", "phone"] })
      expect(set).toEqual({ id: expect.any(String), root: null, synonyms: ["گوشی", "موبایل", "phone"] })
      expect((await client.synonyms.list(assistant.id)).count).toBe(1)
      const replaced = await client.synonyms.replace(assistant.id, [{ root: "iphone", synonyms: ["phone"] }])
      expect(replaced.list.map((one) => one.root)).toEqual(["iphone"])
      const id = replaced.list[0]?.id ?? ""
      expect(await client.synonyms.delete(assistant.id, id)).toBeNull()
      const missing = await rejectionOf(client.synonyms.delete(assistant.id, id))
      expect(missing instanceof DastyarApiError && missing.code).toBe("synonyms.not_found")
    }))
})
