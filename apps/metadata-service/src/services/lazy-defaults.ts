import type { EntityRef, EntitySpec, Registry } from '@catalog/core'
import type { EntityDefaults } from '@catalog/store'

/**
 * An entity's default aspects ({@link EntityDefaults}), made when the store first reads
 * `aspects` (a class, not an object literal with a getter: V8 builds those slowly, and this
 * is one per entity written).
 */
export class LazyDefaults implements EntityDefaults {
  readonly urn: string
  readonly entityType: string
  readonly keyAspect: string
  private made: EntityDefaults['aspects'] | undefined

  constructor(
    private readonly registry: Registry,
    private readonly ref: EntityRef,
    private readonly entity: EntitySpec,
  ) {
    this.urn = ref.urn
    this.entityType = entity.name
    this.keyAspect = entity.keyAspect
  }

  get aspects(): EntityDefaults['aspects'] {
    if (this.made) return this.made
    const out: Array<EntityDefaults['aspects'][number]> = []
    for (const d of this.registry.defaultAspects(this.ref)) {
      out.push({
        aspect: d.aspect,
        value: d.value,
        edges: this.registry.edges(this.entity, d.aspect, d.value),
      })
    }
    this.made = out
    return out
  }

  /** Its JSON (a batch serialized for the writer thread): the members of {@link EntityDefaults}, aspects made. */
  toJSON(): EntityDefaults {
    return { urn: this.urn, entityType: this.entityType, keyAspect: this.keyAspect, aspects: this.aspects }
  }
}
