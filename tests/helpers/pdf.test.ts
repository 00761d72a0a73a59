import zlib from 'node:zlib'
import { expect, test } from 'vitest'
import { pdfText } from './pdf'

// pdfkit deflates every stream; about one in 256 ends in a carriage return (0x0d).
test('the text of a stream whose deflated bytes end in a carriage return', () => {
  for (let i = 0; ; i++) {
    const content = `BT [<${Buffer.from(`ORD_${i}`).toString('hex')}> 0] TJ ET`
    const z = zlib.deflateSync(content)
    if (z[z.length - 1] !== 13) continue
    const doc = Buffer.concat([
      Buffer.from(
        `%PDF-1.3\n5 0 obj\n<<\n/Length ${z.length}\n/Filter /FlateDecode\n>>\nstream\n`,
        'latin1',
      ),
      z,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ])
    expect(pdfText(doc)).toBe(`ORD_${i}`)
    return
  }
})
