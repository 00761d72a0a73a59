/** Lowercase; runs of non-alphanumerics become one hyphen; leading and trailing hyphens trimmed. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
