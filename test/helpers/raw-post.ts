import { request } from 'node:http'

/**
 * POSTs `parts` to `127.0.0.1:port` one write each (chunked unless `headers` give a
 * content-length), as JSON unless `headers` say otherwise; resolves with the status and answer.
 */
export function rawPost(
  port: number,
  path: string,
  parts: readonly Uint8Array[],
  headers: Record<string, string | number> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      port,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
    })
    req.on('response', (res) => {
      const got: Buffer[] = []
      res.on('data', (part: Buffer) => got.push(part))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(got).toString() }))
    })
    req.on('error', reject)
    for (const part of parts) req.write(part)
    req.end()
  })
}

/** `bytes` in parts of `size` bytes. */
export const inParts = (bytes: Uint8Array, size: number): Uint8Array[] =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
