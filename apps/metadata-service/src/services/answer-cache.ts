import { batchedLogFollower, type ChangeLogReader } from './batched-log-follower.js'

/** Answers kept at most (all are dropped past it). */
const DEFAULT_MAX_ANSWERS = 10_000

/**
 * Read answers (as JSON text) that depend on more than one entity's rows, such as the entities
 * at the other end of an entity's edges, remembered until the next write: before answering it
 * reads the change log's head (once per event-loop turn, see `batchedLogFollower`), and any entry after the last one seen drops every answer (an
 * edge to an entity comes from a write of another entity). Answers computed while the log
 * moved on are returned but not remembered.
 */
export class AnswerCache {
  private readonly answers = new Map<string, string>()
  private generation = 0
  private readonly refresh: () => Promise<void>

  constructor(
    log: ChangeLogReader,
    private readonly maxAnswers = DEFAULT_MAX_ANSWERS,
  ) {
    const dropAll = () => {
      this.generation++
      this.answers.clear()
    }
    this.refresh = batchedLogFollower(log, dropAll, dropAll)
  }

  /** The answer remembered for `key`, else `compute()`'s, remembered unless a write came meanwhile. */
  async get(key: string, compute: () => Promise<string>): Promise<string> {
    await this.refresh()
    const known = this.answers.get(key)
    if (known !== undefined) return known
    const generation = this.generation
    const answer = await compute()
    if (generation === this.generation) {
      if (this.answers.size >= this.maxAnswers) this.answers.clear()
      this.answers.set(key, answer)
    }
    return answer
  }
}
