import zlib from 'node:zlib'

/**
 * The streams of a PDF, each exactly as long as its dictionary's /Length says. Cutting at
 * "endstream" instead lost a stream whose deflated bytes ended in a carriage return (about one
 * in 256): the `\r?\n` before "endstream" took that byte, and the stream no longer inflated.
 */
function streams(raw: string): string[] {
  return [...raw.matchAll(/\/Length (\d+)(?![\d ]*R)[^]*?>>\s*stream\r?\n/g)].map((match) => {
    const start = match.index + match[0].length
    return raw.slice(start, start + Number(match[1]))
  })
}

/** The text a PDF draws (pdfkit writes it as hex strings in TJ arrays, in deflated streams). */
export function pdfText(pdf: Buffer): string {
  return streams(pdf.toString('latin1'))
    .map((stream) => {
      try {
        return zlib.inflateSync(Buffer.from(stream, 'latin1')).toString('latin1')
      } catch {
        return stream
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
