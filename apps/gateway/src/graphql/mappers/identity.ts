import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  customProperties,
  globalTags,
  lazyAspect,
  type Mapped,
  num,
  ownership,
  ref,
  refs,
  status,
  str,
} from './common.js'
import { type EntityMapping, existsField } from './types.js'

function userProperties(info: AspectValue, urn: string): Mapped {
  return {
    active: info.active === true,
    displayName: str(info.displayName),
    title: str(info.title),
    email: str(info.email),
    firstName: str(info.firstName),
    lastName: str(info.lastName),
    fullName: str(info.fullName),
    manager: ref(info.managerUrn, ['corpuser']) ?? null,
    departmentId: num(info.departmentId),
    departmentName: str(info.departmentName),
    countryCode: str(info.countryCode),
    customProperties: customProperties(info.customProperties, urn),
  }
}

function mapCorpUser(e: LoadedEntity): Mapped {
  const a = e.aspects
  const info = a.corpUserInfo ? userProperties(a.corpUserInfo, e.urn) : null
  const editable = a.corpUserEditableInfo
  return {
    urn: e.urn,
    username: e.key.username,
    info,
    properties: info,
    editableProperties: editable
      ? {
          displayName: str(editable.displayName),
          title: str(editable.title),
          aboutMe: str(editable.aboutMe),
          teams: Array.isArray(editable.teams) ? editable.teams : null,
          skills: Array.isArray(editable.skills) ? editable.skills : null,
          pictureLink: str(editable.pictureLink),
          slack: str(editable.slack),
          phone: str(editable.phone),
          email: str(editable.email),
        }
      : null,
    globalTags: globalTags(a.globalTags, e.urn),
    status: status(a.status),
    exists: existsField(e),
    // DataHub's CorpUserMapper: a native user has credentials (never read beyond that they exist).
    isNativeUser: lazyAspect(e.urn, 'corpUserCredentials', (v) => v !== undefined),
  }
}

/** `Origin` of a group (native or from an external source); null when absent. */
function origin(v: AspectValue | undefined): Mapped | null {
  return v && typeof v.type === 'string' ? { type: v.type, externalType: str(v.externalType) } : null
}

function mapCorpGroup(e: LoadedEntity): Mapped {
  const a = e.aspects
  const info = a.corpGroupInfo
  const editable = a.corpGroupEditableInfo
  return {
    urn: e.urn,
    name: e.key.name,
    origin: origin(a.origin),
    info: info
      ? {
          displayName: str(info.displayName),
          description: str(info.description),
          email: str(info.email),
          admins: refs(info.admins, ['corpuser']),
          members: refs(info.members, ['corpuser']),
          groups: Array.isArray(info.groups) ? info.groups.filter((g) => typeof g === 'string') : null,
        }
      : null,
    properties: info
      ? {
          displayName: str(info.displayName),
          description: str(info.description),
          email: str(info.email),
          slack: str(info.slack),
        }
      : null,
    editableProperties: editable
      ? {
          description: str(editable.description),
          slack: str(editable.slack),
          pictureLink: str(editable.pictureLink),
          email: str(editable.email),
        }
      : null,
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    exists: existsField(e),
  }
}

export const CORP_USER_MAPPING: EntityMapping = {
  typeName: 'CorpUser',
  entityType: 'CORP_USER',
  aspects: ['corpUserInfo', 'corpUserEditableInfo', 'globalTags', 'status'],
  map: mapCorpUser,
}

export const CORP_GROUP_MAPPING: EntityMapping = {
  typeName: 'CorpGroup',
  entityType: 'CORP_GROUP',
  aspects: ['corpGroupInfo', 'corpGroupEditableInfo', 'ownership', 'status', 'origin'],
  map: mapCorpGroup,
}
