/**
 * The type of a polymorphic value, read the way OneDev's Jackson writes it. Two properties can say it:
 *
 * - `@class`, the fully-qualified class name, where the declared class carries
 *   `@JsonTypeInfo(use=Id.CLASS)`: OneDev's `Authenticator` (v8.0.0 through v16.5.6 and HEAD,
 *   server-core/src/main/java/io/onedev/server/model/support/administration/authenticator/Authenticator.java:16
 *   at v8.0.0, :14 from v11.7.0), so GET /settings/authenticator answers
 *   `{"@class": "io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator", …}`. A class annotation
 *   wins over the mapper's default typing. It is the only such class in OneDev at any release tag
 *   from v8.0.0 to v16.5.6 that the audit reads (the other one, ProjectAttachmentSupport, is never sent).
 * - `@type`, the simple class name (nested classes `Outer$Inner`), written by the default typing
 *   wherever the declared type is abstract or an interface and not a collection, map, enum or Object
 *   (ObjectMapperProvider.java:73-122 at v16.5.6, the same rule at v8.0.0:52-86: Id.NAME with the
 *   default property, `@type`): the items of List<JobExecutor>, SsoProvider.connector,
 *   LdapAuthenticator.groupRetrieval, action authorizations, contributed settings, field and
 *   transition specs, ...
 *
 * `typeOf` reads `@class` first, then `@type`, and answers the simple name either way
 * (`LdapAuthenticator`), so that every reading of a type compares one spelling. Every place the
 * audit reads a value's type goes through it.
 */
import {isObject} from '../util/json.js'

/** The properties a type may be written under, in the order they are read. */
export const TYPE_PROPERTIES = ['@class', '@type'] as const

/** A type name without its package (`io.onedev.….LdapAuthenticator` → `LdapAuthenticator`); null for anything but a non-empty string. */
export function simpleTypeName(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const name = value.slice(value.lastIndexOf('.') + 1).trim()
  return name === '' ? null : name
}

/** The value's type as its simple class name (`@class` first, then `@type`); null when it says none. */
export function typeOf(value: unknown): string | null {
  if (!isObject(value)) return null
  for (const property of TYPE_PROPERTIES) {
    if (!Object.prototype.hasOwnProperty.call(value, property)) continue
    const name = simpleTypeName(value[property])
    if (name !== null) return name
  }
  return null
}

/** Whether `key` is one of the properties that carry a type (kept readable when values are masked). */
export function isTypeProperty(key: string): boolean {
  return key === '@class' || key === '@type'
}

/** A payload check that also wants the value to say its type (either property): a listing item or setting without one is not read. */
export function typedCheck(check: (value: unknown) => boolean): (value: unknown) => boolean {
  return (value) => check(value) && typeOf(value) !== null
}
