// @20minutes/s3rver ships no types; the parts tests/helpers/s3.ts uses.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net'

  interface S3rverOptions {
    address?: string
    port?: number
    directory: string
    silent?: boolean
    resetOnClose?: boolean
    configureBuckets?: Array<{ name: string }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
