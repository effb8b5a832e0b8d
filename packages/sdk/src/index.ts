export * from "./EffectClient"
