/**
 * The fields of a new connection, per messenger: a bot token (Telegram, Bale),
 * the four values of a WhatsApp Cloud API number, or a webhook's callback and
 * secret; and the request body they make. Secrets are password fields.
 */
import { useI18n } from "../i18n"
import { Field } from "../ui"

export const drivers = ["telegram", "bale", "whatsapp", "webhook"] as const
export type DriverChoice = typeof drivers[number]

export const isDriver = (value: string): value is DriverChoice => drivers.some((driver) => driver === value)

export interface FormValues {
  readonly botToken: string
  readonly callbackUrl: string
  readonly secret: string
  readonly phoneNumberId: string
  readonly accessToken: string
  readonly appSecret: string
  readonly verifyToken: string
}

export const emptyValues: FormValues = {
  botToken: "",
  callbackUrl: "",
  secret: "",
  phoneNumberId: "",
  accessToken: "",
  appSecret: "",
  verifyToken: ""
}

/** The create request's body for `driver`. */
export const bodyFor = (driver: DriverChoice, values: FormValues) => {
  switch (driver) {
    case "telegram":
    case "bale":
      return { driver, botToken: values.botToken }
    case "whatsapp":
      return {
        driver,
        phoneNumberId: values.phoneNumberId,
        accessToken: values.accessToken,
        appSecret: values.appSecret,
        verifyToken: values.verifyToken
      }
    case "webhook":
      return { driver, callbackUrl: values.callbackUrl, secret: values.secret }
  }
}

/** Keeps what was typed in the public fields; secrets are forgotten once sent. */
export const afterCreate = (values: FormValues): FormValues => ({
  ...emptyValues,
  callbackUrl: values.callbackUrl,
  phoneNumberId: values.phoneNumberId
})

export const DriverOptions = () => {
  const { t } = useI18n()
  return (
    <>
      <option value="telegram">Telegram</option>
      <option value="bale">{t("connections.bale")}</option>
      <option value="whatsapp">WhatsApp</option>
      <option value="webhook">{t("connections.webhook")}</option>
    </>
  )
}

export const DriverFields = ({ driver, values, onChange }: {
  readonly driver: DriverChoice
  readonly values: FormValues
  readonly onChange: (values: FormValues) => void
}) => {
  const { t } = useI18n()
  const set = (key: keyof FormValues) => (event: { readonly target: { readonly value: string } }) =>
    onChange({ ...values, [key]: event.target.value })
  const secret = (key: keyof FormValues, label: string, hint?: string, minLength?: number) => (
    <Field label={label} hint={hint}>
      {(id) => <input id={id} name={key} required dir="ltr" type="password" autoComplete="off" minLength={minLength} value={values[key]} onChange={set(key)} />}
    </Field>
  )
  switch (driver) {
    case "telegram":
      return secret("botToken", t("connections.botToken"))
    case "bale":
      return secret("botToken", t("connections.botToken"), t("connections.baleHint"))
    case "whatsapp":
      return (
        <>
          <Field label={t("connections.phoneNumberId")} hint={t("connections.phoneNumberIdHint")}>
            {(id) => <input id={id} name="phoneNumberId" required dir="ltr" inputMode="numeric" pattern="[0-9]{5,40}" value={values.phoneNumberId} onChange={set("phoneNumberId")} />}
          </Field>
          {secret("accessToken", t("connections.accessToken"), undefined, 20)}
          {secret("appSecret", t("connections.appSecret"), undefined, 16)}
          {secret("verifyToken", t("connections.verifyToken"), t("connections.verifyTokenHint"), 8)}
        </>
      )
    case "webhook":
      return (
        <>
          <Field label={t("connections.callbackUrl")}>
            {(id) => <input id={id} name="callbackUrl" required dir="ltr" type="url" value={values.callbackUrl} onChange={set("callbackUrl")} />}
          </Field>
          {secret("secret", t("connections.secret"), t("connections.secretHint"), 32)}
        </>
      )
  }
}
