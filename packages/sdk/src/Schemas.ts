/** Names for the generated OpenAPI schema types that the promise client takes and returns. */
import type { components } from "./generated/openapi"

type Schemas = components["schemas"]

export type Assistant = Schemas["Assistant"]
export type AssistantList = Schemas["AssistantListResponse"]["data"]
export type Model = Schemas["Model"]
export type ModelList = Schemas["ModelListResponse"]["data"]
export type Account = Schemas["Account"]
export type AccountCreate = Schemas["AccountCreate"]
export type ApiKeyCreate = Schemas["ApiKeyCreate"]
export type CreatedApiKey = Schemas["CreatedApiKey"]
export type AssistantCreate = Schemas["AssistantCreate"]
export type AssistantUpdate = Schemas["AssistantUpdate"]
export type Folder = Schemas["Folder"]
export type FolderCreate = Schemas["FolderCreate"]
export type FieldError = Schemas["FieldError"]
