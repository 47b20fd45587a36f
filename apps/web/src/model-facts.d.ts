/** Facts of the registry's model, computed at build time (see vite.config.ts). */
declare module 'virtual:model-facts' {
  const facts: {
    /** Relationship names of an entity type's own aspects, by entity type (`dataset`). */
    readonly outgoing: Readonly<Record<string, readonly string[]>>
    /** Relationship names whose destination may be the entity type. */
    readonly incoming: Readonly<Record<string, readonly string[]>>
    /** The entity type's time-series aspects, in the registry's order. */
    readonly timeseries: Readonly<Record<string, readonly string[]>>
  }
  export default facts
}
