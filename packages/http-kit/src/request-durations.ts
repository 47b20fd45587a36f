import type { Metric, Registry } from 'prom-client'

/** The labels of one series: route pattern, Rest.li action, method and status. */
export interface RequestLabels {
  readonly route: string
  readonly action: string
  readonly method: string
  readonly status: string
}

/** One label set's counts: observing is two additions and a bucket increment. */
export class DurationSeries {
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  readonly counts: Float64Array
  sum = 0
  count = 0

  constructor(
    readonly labels: RequestLabels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1)
  }

  /** Records one request's duration in seconds. */
  observe(seconds: number): void {
    const bounds = this.bounds
    let i = 0
    while (i < bounds.length && seconds > (bounds[i] as number)) i++
    this.counts[i] = (this.counts[i] as number) + 1
    this.sum += seconds
    this.count++
  }
}

/** A value as prom-client's registry formats it (`labels` first, then `sharedLabels`). */
interface ExportedValue {
  readonly labels: Record<string, string | number>
  readonly sharedLabels: RequestLabels
  readonly value: number
  readonly metricName: string
  readonly exemplar: null | undefined
}

/** What a metric answers the registry. */
interface Exported<V> {
  readonly name: string
  readonly help: string
  readonly type: string
  readonly values: V[]
  readonly aggregator: string
}

/**
 * A Prometheus histogram of request durations, exported by a prom-client registry exactly as
 * a prom-client `Histogram` with the labels route, action, method and status would be (same
 * lines, same label order), but cheaper to observe: a request adds to a {@link DurationSeries}
 * its route holds, with no label object built, validated or hashed per request.
 */
export class RequestDurations {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly all = new Map<string, DurationSeries>()

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry asks a metric only for its name, `get()` and `reset()`.
    registry.registerMetric(this as unknown as Metric)
  }

  /** The series of a label set, made at its first request. */
  series(labels: RequestLabels): DurationSeries {
    const key = `${labels.route} ${labels.action} ${labels.method} ${labels.status}`
    let series = this.all.get(key)
    if (!series) {
      series = new DurationSeries({ ...labels }, this.bounds)
      this.all.set(key, series)
    }
    return series
  }

  /** For the text exposition: what prom-client's `Histogram.getForPromString()` answers. */
  async getForPromString(): Promise<Exported<ExportedValue>> {
    return this.exported()
  }

  /** For `getMetricsAsJSON()`: what prom-client's `Histogram.get()` answers (each value's labels in one object). */
  async get(): Promise<Exported<Omit<ExportedValue, 'sharedLabels'>>> {
    const data = this.exported()
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    }
  }

  /** Cumulative buckets, `+Inf`, sum and count of every series. */
  private exported(): Exported<ExportedValue> {
    const values: ExportedValue[] = []
    const bucket = `${this.name}_bucket`
    for (const s of this.all.values()) {
      const shared = s.labels
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i] as number
        values.push({
          labels: { le },
          sharedLabels: shared,
          value: cumulative,
          metricName: bucket,
          exemplar: null,
        })
      })
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: shared, value: s.count, metricName: bucket, exemplar: null },
        {
          labels: {},
          sharedLabels: shared,
          value: s.sum,
          metricName: `${this.name}_sum`,
          exemplar: undefined,
        },
        {
          labels: {},
          sharedLabels: shared,
          value: s.count,
          metricName: `${this.name}_count`,
          exemplar: undefined,
        },
      )
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  /** Zeroes every series (`registry.resetMetrics()`). */
  reset(): void {
    for (const s of this.all.values()) {
      s.counts.fill(0)
      s.sum = 0
      s.count = 0
    }
  }
}
