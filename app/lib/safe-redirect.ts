/**
 * Only a same-site path may be a destination taken from a request (no open redirect): after
 * signing in, after choosing a theme, anywhere a form or a link names where to go next.
 * Kept apart from the Zod schemas so that pages needing only this do not load Zod.
 *
 * Browsers remove tabs and newlines from a URL, read a backslash as a slash and treat a
 * leading `//` as another host, so `/\t/evil.example` lands on evil.example. Such characters
 * are refused anywhere, also once percent-decoded (a proxy or a framework may decode them).
 * The answer is the parsed, percent-encoded form, so it is always a valid Location header.
 */
const DUMMY_ORIGIN = 'http://redirect.invalid'
// Whitespace (Unicode's too), C0 and C1 control characters, backslashes.
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const UNSAFE = /[\s\\\u0000-\u001f\u007f-\u009f]/

function decodedForms(path: string): string[] | null {
  const forms = [path]
  let current = path
  // A few rounds catch double encoding (%2509) without looping on hostile input.
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    try {
      current = decodeURIComponent(current)
    } catch {
      return null
    }
    forms.push(current)
  }
  return forms
}

export function safeRedirect(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || UNSAFE.test(to)) {
    return fallback
  }
  let url: URL
  try {
    url = new URL(to, DUMMY_ORIGIN)
  } catch {
    return fallback
  }
  if (url.origin !== DUMMY_ORIGIN) return fallback
  // The parser resolves dot segments: `/.//evil.example` becomes `//evil.example`.
  const forms = decodedForms(url.pathname)
  if (!forms || forms.some((path) => path.startsWith('//') || UNSAFE.test(path))) return fallback
  return url.pathname + url.search + url.hash
}
