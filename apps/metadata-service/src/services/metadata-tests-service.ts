import { createHash } from 'node:crypto'
import {
  type AuditStamp,
  InvalidInputError,
  NotFoundError,
  parseTestDefinition,
  type Registry,
  type TestDefinition,
  ValidationError,
} from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { IngestService } from './ingest-service.js'
import { TestEvaluator } from './metadata-tests-evaluator.js'

/** `POST /gms/test?action=evaluate` parameters. */
export interface EvaluateRequest {
  readonly urn: string
  /** Store the results as the entity's `testResults` aspect. Default false. */
  readonly push?: boolean
  /** Only these tests (default: every test that is not soft-deleted). */
  readonly testUrns?: readonly string[]
}

/** `com.linkedin.test.TestResult`. */
export interface TestResultEntry {
  readonly test: string
  readonly type: 'SUCCESS' | 'FAILURE'
  readonly testDefinitionMd5: string
  readonly lastComputed: AuditStamp
}

/** `com.linkedin.test.TestResults`. */
export interface TestResultsValue {
  readonly passing: TestResultEntry[]
  readonly failing: TestResultEntry[]
}

interface LoadedTest {
  readonly urn: string
  readonly definition: TestDefinition
  readonly md5: string
}

const PAGE = 500
export const MAX_TEST_URNS = 1000

/**
 * Metadata tests: evaluates the `testInfo` definitions of test entities against one entity;
 * with `push`, stores the results as its `testResults` aspect through ingest, which turns them
 * into `IsPassing` / `IsFailing` edges and search fields like any other write.
 */
export class MetadataTestsService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {}

  /** Tests that do not apply to the entity are in neither list. */
  async evaluate(req: EvaluateRequest, actor: string): Promise<TestResultsValue> {
    const ref = this.resolve(req.urn)
    if (!(await this.store.exists(ref.urn, ref.entity.keyAspect))) {
      throw new NotFoundError(`Entity ${ref.urn} does not exist`)
    }
    const tests = req.testUrns !== undefined ? await this.named(req.testUrns) : await this.all()
    const rows = (await this.store.latest([ref.urn])).get(ref.urn) ?? []
    const subject = {
      urn: ref.urn,
      entityType: ref.entity.name,
      aspects: new Map(rows.map((r) => [r.aspect, r.value] as const)),
    }
    const evaluator = new TestEvaluator()
    const lastComputed = { time: Date.now(), actor }
    const results: TestResultsValue = { passing: [], failing: [] }
    for (const test of tests) {
      const verdict = evaluator.verdict(test.definition, subject)
      if (verdict === 'NOT_APPLICABLE') continue
      const entry = { test: test.urn, type: verdict, testDefinitionMd5: test.md5, lastComputed }
      ;(verdict === 'SUCCESS' ? results.passing : results.failing).push(entry)
    }
    if (req.push) await this.push(ref.entity.name, ref.urn, results, subject.aspects, tests, req, actor)
    return results
  }

  /**
   * Writes `testResults`: the entries of the tests evaluated now replace theirs; when only some
   * tests were named, the stored entries of the others are kept.
   */
  private async push(
    entityType: string,
    urn: string,
    results: TestResultsValue,
    aspects: ReadonlyMap<string, unknown>,
    tests: readonly LoadedTest[],
    req: EvaluateRequest,
    actor: string,
  ): Promise<void> {
    const evaluated = new Set(tests.map((t) => t.urn))
    const previous = (aspects.get('testResults') ?? {}) as Partial<TestResultsValue>
    const kept = (list: TestResultEntry[] | undefined) =>
      req.testUrns === undefined ? [] : (list ?? []).filter((e) => !evaluated.has(e.test))
    const value = {
      passing: [...kept(previous.passing), ...results.passing],
      failing: [...kept(previous.failing), ...results.failing],
    }
    await this.ingest.ingestProposals(
      [
        {
          entityType,
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'testResults',
          aspect: { value: JSON.stringify(value), contentType: 'application/json' },
        },
      ],
      actor,
    )
  }

  private async named(testUrns: readonly string[]): Promise<LoadedTest[]> {
    if (testUrns.length > MAX_TEST_URNS) throw new InvalidInputError(`at most ${MAX_TEST_URNS} testUrns`)
    const urns = [...new Set(testUrns)]
    for (const u of urns) {
      if (this.resolve(u).entity.name !== 'test') throw new InvalidInputError(`${u} is not a test urn`)
    }
    const rows = await this.store.latest(urns, ['testInfo'])
    const out: LoadedTest[] = []
    for (const u of urns) {
      const aspects = rows.get(u) ?? []
      const info = aspects.find((a) => a.aspect === 'testInfo')
      if (!info) throw new NotFoundError(`Test ${u} does not exist`)
      out.push(this.load(u, info.value))
    }
    return out
  }

  /** Every test entity with a definition, in URN order (DataHub's test entity has no `status`: a test is retired by deleting it). */
  private async all(): Promise<LoadedTest[]> {
    const infos: Array<{ urn: string; value: Record<string, unknown> }> = []
    for (let start = 0; ; start += PAGE) {
      const page = await this.store.scan({ aspect: 'testInfo', urnLike: 'urn:li:test:%', start, limit: PAGE })
      infos.push(...page.map((r) => ({ urn: r.urn, value: r.value })))
      if (page.length < PAGE) break
    }
    return infos.map((i) => this.load(i.urn, i.value))
  }

  private load(urn: string, testInfo: Record<string, unknown>): LoadedTest {
    const json = (testInfo.definition as { json?: unknown } | undefined)?.json
    if (typeof json !== 'string') throw new ValidationError(`Test ${urn} has no JSON definition`)
    try {
      return {
        urn,
        definition: parseTestDefinition(json, this.registry),
        md5: createHash('md5').update(json).digest('hex'),
      }
    } catch (err) {
      if (err instanceof ValidationError) {
        throw new ValidationError(`Test ${urn} has an invalid definition: ${err.message}`)
      }
      throw err
    }
  }

  private resolve(urn: string) {
    try {
      return this.registry.resolveUrn(urn)
    } catch (err) {
      if (err instanceof ValidationError) throw new InvalidInputError(err.message)
      throw err
    }
  }
}
