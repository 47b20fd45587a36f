/**
 * Keys seen once lately, within a budget of characters: a cache's doorkeeper, which remembers a
 * value only when its key comes a second time. Past the budget every key is dropped at once (a
 * key seen again after that counts as new), so its memory stays bounded however many keys pass.
 */
export class SeenOnce {
  private readonly keys = new Set<string>()
  private chars = 0

  constructor(private readonly budget: number) {}

  has(key: string): boolean {
    return this.keys.has(key)
  }

  add(key: string): void {
    if (this.keys.has(key)) return
    if (this.chars + key.length > this.budget) {
      this.keys.clear()
      this.chars = 0
    }
    this.keys.add(key)
    this.chars += key.length
  }

  delete(key: string): void {
    if (this.keys.delete(key)) this.chars -= key.length
  }
}
