/**
 * The mail service and the service desk (issue 34): `GET /settings/mail-service` (v10.0.0+; on 8.x
 * `/settings/mail`, tried when the first is not offered) and `GET /settings/service-desk` (v8.0.0+),
 * admin only (v16.5.6 server-core/src/main/java/io/onedev/server/rest/resource/SettingResource.java:126-142;
 * v8.0.0 server-core/src/main/java/io/onedev/server/rest/SettingResource.java:118-134). Two requests
 * per server (three on 8.x), none per project; 204 means none configured (mail) or not enabled
 * (service desk). The mail setting holds the SMTP and IMAP passwords and, for Gmail and Office 365,
 * an OAuth client secret and refresh token: each is redacted as the answer arrives and never stored
 * (src/model/redact.ts); the typed views are in src/model/mail-data.ts.
 */
import {HARDENING_ENDPOINTS} from '../model/endpoints.js'
import type {OptionalFetch} from './optional.js'

export const MAIL_SERVICE = {
  endpoint: HARDENING_ENDPOINTS.mailService,
  checks: 'mail transport checks (server/mail-plaintext)',
  fallbacks: [{path: HARDENING_ENDPOINTS.mail, endpoint: HARDENING_ENDPOINTS.mail}],
}
export const SERVICE_DESK = {endpoint: HARDENING_ENDPOINTS.serviceDesk, checks: 'service desk checks (server/service-desk-open)'}

/** The mail service and the service desk. */
export async function fetchMail(fetch: OptionalFetch): Promise<void> {
  await Promise.all([fetch.get(MAIL_SERVICE.endpoint, MAIL_SERVICE), fetch.get(SERVICE_DESK.endpoint, SERVICE_DESK)])
}
