import zlib from 'node:zlib'

/** The text a PDF draws (pdfkit writes it as hex strings in TJ arrays, in deflated streams). */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1')
  return [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)]
    .map((match) => {
      try {
        return zlib.inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1')
      } catch {
        return match[1]!
      }
    })
    .flatMap((content) => [...content.matchAll(/\[([^\]]*)\]\s*TJ/g)])
    .map((tj) =>
      [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
        .map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1'))
        .join(''),
    )
    .join('\n')
}
