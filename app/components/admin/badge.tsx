/** The back office's status pills are the shared primitive (`~/components/ui/badge`). */
export { Badge, type BadgeTone } from '~/components/ui/badge'
