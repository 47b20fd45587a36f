import { canonicalJson } from '@catalog/core'

/** Between a row's partition and its granularity in {@link timeseriesKey}'s `partition`. */
const GRANULARITY_SEPARATOR = '\u241f'

/**
 * What tells apart two time-series values of one aspect of one entity at one timestamp, as
 * DataHub's document id of a time-series value does: its partition (`partitionSpec`), its event
 * granularity (a day's bucket and the absolute value of the same time are two values) and its
 * `messageId`. `partition` is the canonical JSON of `partitionSpec` ('' when absent), followed by
 * that of `eventGranularity` when there is one; `legacyPartition` is the partition alone, the key
 * layouts up to this version gave every value (a bucket written so is replaced by its rewrite).
 */
export function timeseriesKey(value: Readonly<Record<string, unknown>>): {
  partition: string
  messageId: string
  legacyPartition?: string
} {
  const partition = value.partitionSpec === undefined ? '' : canonicalJson(value.partitionSpec)
  const messageId = typeof value.messageId === 'string' ? value.messageId : ''
  if (value.eventGranularity === undefined || value.eventGranularity === null) return { partition, messageId }
  return {
    partition: `${partition}${GRANULARITY_SEPARATOR}${canonicalJson(value.eventGranularity)}`,
    messageId,
    legacyPartition: partition,
  }
}
