import { batchedLogFollower, type ChangeLogReader } from './batched-log-follower.js'
import { SeenOnce } from './seen-once.js'

/** Characters of answers (and their keys) kept at most; the oldest are dropped first. */
const DEFAULT_BUDGET = 8 * 1024 * 1024

/**
 * Read answers (as JSON text) that depend on more than one entity's rows, such as the entities
 * at the other end of an entity's edges, remembered until the next write: before answering it
 * reads the change log's head (once per event-loop turn, see `batchedLogFollower`; not for a key asked for the
 * first time), and any entry
 * after the last one seen drops every answer (an edge to an entity comes from a write of another
 * entity). Answers computed while the log moved on are returned but not remembered. An answer is
 * remembered from the second time its key is asked for (see {@link SeenOnce}), within a budget of
 * characters.
 */
export class AnswerCache {
  private readonly answers = new Map<string, string>()
  private chars = 0
  private generation = 0
  private readonly refresh: () => Promise<void>
  private readonly seen: SeenOnce

  constructor(
    log: ChangeLogReader,
    private readonly budget = DEFAULT_BUDGET,
  ) {
    this.seen = new SeenOnce(Math.max(1024, Math.floor(budget / 32)))
    const dropAll = () => {
      this.generation++
      this.answers.clear()
      this.chars = 0
    }
    this.refresh = batchedLogFollower(log, dropAll, dropAll)
  }

  /** The answer remembered for `key`, else `compute()`'s, remembered unless a write came meanwhile. */
  async get(key: string, compute: () => Promise<string>): Promise<string> {
    // Asked for the first time, the answer is computed from the store (which holds every
    // committed write) and not remembered: no need to read the log.
    if (this.answers.has(key) || this.seen.has(key)) {
      await this.refresh()
      const known = this.answers.get(key)
      if (known !== undefined) return known
    }
    const generation = this.generation
    const answer = await compute()
    if (generation === this.generation) this.offer(key, answer)
    return answer
  }

  private offer(key: string, answer: string): void {
    if (!this.seen.has(key)) {
      this.seen.add(key)
      return
    }
    this.seen.delete(key)
    const size = key.length + answer.length
    if (size > this.budget / 16) return
    this.answers.set(key, answer)
    this.chars += size
    for (const [oldest, text] of this.answers) {
      if (this.chars <= this.budget) break
      this.answers.delete(oldest)
      this.chars -= oldest.length + text.length
    }
  }
}
