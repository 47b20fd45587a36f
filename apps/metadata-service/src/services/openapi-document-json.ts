import type { JsonSchema } from './openapi-model-schemas.js'

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The document as JSON text, serialized one path and one schema at a time with a yield to the
 * event loop every `chunk` entries (the whole document is megabytes).
 */
export async function stringifyInSteps(doc: JsonSchema, chunk = 100): Promise<string> {
  let n = 0
  const parts: string[] = []
  const entries = async (record: Record<string, unknown>) => {
    const out: string[] = []
    for (const [key, value] of Object.entries(record)) {
      out.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
      if (++n % chunk === 0) await yieldToEventLoop()
    }
    return `{${out.join(',')}}`
  }
  const { paths, components, ...rest } = doc as { paths: JsonSchema; components: JsonSchema }
  const { schemas, ...otherComponents } = components as { schemas: JsonSchema }
  for (const [key, value] of Object.entries(rest))
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`)
  parts.push(`"paths":${await entries(paths)}`)
  const componentParts = Object.entries(otherComponents).map(
    ([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`,
  )
  componentParts.unshift(`"schemas":${await entries(schemas)}`)
  parts.push(`"components":{${componentParts.join(',')}}`)
  return `{${parts.join(',')}}`
}
