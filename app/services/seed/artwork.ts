import sharp from 'sharp'
import type { Glyph } from './demo-products'

/**
 * Product artwork made locally (no network, no fonts): a gradient card with
 * soft shapes and a category glyph, rendered from SVG to WebP with sharp.
 */
const GLYPHS: Record<Glyph, string> = {
  play: '<path d="M-60 -80 L90 0 L-60 80 Z"/>',
  note: '<path d="M-20 -100 L80 -120 L80 40 A36 30 0 1 1 56 12 L56 -80 L4 -70 L4 70 A36 30 0 1 1 -20 42 Z"/>',
  code: '<path d="M-40 -70 L-110 0 L-40 70" class="line"/><path d="M40 -70 L110 0 L40 70" class="line"/><path d="M20 -100 L-20 100" class="line"/>',
  shield:
    '<path d="M0 -110 L90 -75 C90 10 60 75 0 110 C-60 75 -90 10 -90 -75 Z"/><path d="M-40 0 L-10 30 L45 -30" class="cut"/>',
  book: '<path d="M-110 -80 C-60 -95 -20 -90 0 -70 C20 -90 60 -95 110 -80 L110 90 C60 75 20 80 0 100 C-20 80 -60 75 -110 90 Z"/>',
  pad: '<path d="M-100 -50 C-130 -50 -140 60 -110 80 C-90 95 -60 60 -40 40 L40 40 C60 60 90 95 110 80 C140 60 130 -50 100 -50 Z"/><circle cx="-60" cy="-5" r="14" class="cut"/><circle cx="60" cy="-5" r="14" class="cut"/>',
  brush:
    '<path d="M70 -110 L100 -80 L-10 40 L-40 10 Z"/><path d="M-50 20 L-20 50 C-30 90 -80 110 -110 100 C-90 80 -90 40 -50 20 Z"/>',
  star: '<path d="M0 -110 L30 -35 L110 -30 L48 20 L68 100 L0 55 L-68 100 L-48 20 L-110 -30 L-30 -35 Z"/>',
  grid: '<rect x="-100" y="-100" width="90" height="90" rx="14"/><rect x="10" y="-100" width="90" height="90" rx="14"/><rect x="-100" y="10" width="90" height="90" rx="14"/><rect x="10" y="10" width="90" height="90" rx="14"/>',
  plug: '<path d="M-40 -110 L-40 -50 M40 -110 L40 -50" class="line"/><path d="M-80 -50 L80 -50 L80 10 C80 50 40 70 10 70 L10 110 L-10 110 L-10 70 C-40 70 -80 50 -80 10 Z"/>',
  layout:
    '<rect x="-110" y="-90" width="220" height="180" rx="18"/><rect x="-90" y="-70" width="180" height="36" rx="8" class="cut"/><rect x="-90" y="-20" width="70" height="90" rx="8" class="cut"/><rect x="-5" y="-20" width="95" height="90" rx="8" class="cut"/>',
  check:
    '<rect x="-100" y="-100" width="200" height="200" rx="36"/><path d="M-50 0 L-15 35 L55 -40" class="cut"/>',
}

function hsl(hue: number, saturation: number, lightness: number): string {
  return `hsl(${((hue % 360) + 360) % 360} ${saturation}% ${lightness}%)`
}

export function artworkSvg(glyph: Glyph, hue: number, width = 1200, height = 900): string {
  const from = hsl(hue, 72, 46)
  const to = hsl(hue + 40, 78, 30)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1200 900">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/>
    </radialGradient>
    <style>
      .glyph path, .glyph rect, .glyph circle { fill: #fff; stroke: none; }
      .glyph .cut { fill: ${to}; stroke: ${to}; stroke-width: 0; }
      .glyph path.cut { fill: none; stroke: ${to}; stroke-width: 22; stroke-linecap: round; stroke-linejoin: round; }
      .glyph .line { fill: none; stroke: #fff; stroke-width: 22; stroke-linecap: round; }
    </style>
  </defs>
  <rect width="1200" height="900" fill="url(#bg)"/>
  <circle cx="1040" cy="120" r="260" fill="#fff" fill-opacity="0.08"/>
  <circle cx="140" cy="820" r="320" fill="#000" fill-opacity="0.10"/>
  <circle cx="600" cy="450" r="330" fill="url(#glow)"/>
  <g class="glyph" transform="translate(600 450) scale(1.9)">${GLYPHS[glyph]}</g>
</svg>`
}

/** The artwork as a 1200×900 WebP. */
export async function renderArtwork(glyph: Glyph, hue: number): Promise<Buffer> {
  return sharp(Buffer.from(artworkSvg(glyph, hue)))
    .webp({ quality: 80 })
    .toBuffer()
}
