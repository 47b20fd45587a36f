export { APPS, program, run, SAMPLE_PATHS } from './main.js'
export { type IngestCall, type MetadataRecord, preJsonTransform, toIngestCall } from './records.js'
