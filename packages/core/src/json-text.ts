/**
 * A JSON value kept as its UTF-8 text instead of parsed: the JSON body worker hands a large
 * aspect of a request body over this way, so that the event loop never builds, copies or
 * re-serializes the big object. The text is `JSON.stringify` of the value as parsed (so it
 * is what serializing the parsed value would give), and {@link chars} is its length in
 * UTF-16 code units.
 */
export class JsonText {
  private held: Uint8Array | undefined

  constructor(
    bytes: Uint8Array,
    /** `text.length` of the JSON text (what `JSON.stringify(value).length` gives). */
    readonly chars: number,
  ) {
    this.held = bytes
  }

  /**
   * The bytes, given up to the caller (to be transferred to a worker without a copy); the value
   * can be read no more after this.
   */
  take(): Uint8Array {
    const bytes = this.bytes()
    this.held = undefined
    return bytes
  }

  /** The value, decoded and parsed here (on the calling thread). */
  parse(): unknown {
    return JSON.parse(new TextDecoder().decode(this.bytes()))
  }

  /** Serializes as the value it holds (`JSON.stringify` of a body holding it stays the same). */
  toJSON(): unknown {
    return this.parse()
  }

  private bytes(): Uint8Array {
    if (!this.held) throw new Error('the JSON text was handed over already')
    return this.held
  }
}
