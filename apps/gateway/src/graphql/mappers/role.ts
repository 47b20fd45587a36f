import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { lazyAspect, list, type Mapped, obj, ref, str } from './common.js'
import type { EntityMapping, FieldFn } from './types.js'

/**
 * `Role` (an access role of an external system, `urn:li:role:<id>`) as DataHub's RoleMapper:
 * its id, `roleProperties` and the users and groups of `actors`. `isAssignedToMe` has its own
 * resolver (it depends on the caller).
 */
function mapRole(e: LoadedEntity): Mapped {
  const properties = e.aspects.roleProperties
  const actors = e.aspects.actors
  return {
    urn: e.urn,
    id: e.key.id,
    properties: properties
      ? {
          name: str(properties.name) ?? '',
          description: str(properties.description),
          type: str(properties.type),
          requestUrl: str(properties.requestUrl),
        }
      : null,
    actors: actors
      ? {
          users: actorRefs(actors.users, 'user', 'corpuser'),
          groups: actorRefs(actors.groups, 'group', 'corpGroup'),
        }
      : null,
  }
}

/** `[RoleUser]` / `[RoleGroup]`: each valid member as `{<member>: ref}`; null when the list is absent. */
function actorRefs(members: unknown, member: string, type: string): Mapped[] | null {
  if (!Array.isArray(members)) return null
  return members.flatMap((m) => {
    const target = ref(obj(m)?.[member], [type])
    return target ? [{ [member]: target }] : []
  })
}

/** The users and groups a `Role` names in `actors`, as URNs. */
export function roleActors(role: Mapped): { users: string[]; groups: string[] } {
  const actors = obj(role.actors)
  const urns = (members: unknown, member: string) =>
    list(members).flatMap((m) => {
      const target = obj(obj(m)?.[member])?.urn
      return typeof target === 'string' ? [target] : []
    })
  return { users: urns(actors?.users, 'user'), groups: urns(actors?.groups, 'group') }
}

/** `Access` (the roles granting access to an entity) from its `access` aspect, as DataHub's AccessMapper. */
function access(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    roles: list(v.roles).flatMap((r) => {
      const role = ref(obj(r)?.urn, ['role'])
      return role ? [{ role, associatedUrn }] : []
    }),
  }
}

/** The `access` field of an entity: its `access` aspect, read when selected. */
export function accessField(urn: string): FieldFn {
  return lazyAspect(urn, 'access', (v) => access(v, urn))
}

export const ROLE_MAPPING: EntityMapping = {
  typeName: 'Role',
  entityType: 'ROLE',
  aspects: ['roleProperties', 'actors'],
  map: mapRole,
}
