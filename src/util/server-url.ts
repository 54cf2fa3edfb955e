/**
 * The server URL without user info, query or fragment: a base URL given with credentials
 * (`https://bot:token@onedev.example.com/`) must not reach a report or a message.
 */
export function safeServerUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password && !parsed.search && !parsed.hash && !/[?#@]/.test(url)) return url
    parsed.username = ''
    parsed.password = ''
    parsed.search = ''
    parsed.hash = ''
    return parsed.toString()
  } catch {
    // Not a URL: keep only what comes after a user-info `@`, and nothing after `?` or `#`.
    return url.replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1')
  }
}
