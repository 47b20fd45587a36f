/** User and group aspects (`com.linkedin.identity.*`). */
import { Type } from '@sinclair/typebox'
import { AuditStamp, Opt, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { CUSTOM_PROPERTIES_SEARCH, customProperties, open } from './records.js'

const corpUserInfo: AspectSpec = {
  name: 'corpUserInfo',
  record: 'com.linkedin.identity.CorpUserInfo',
  schema: Type.Object({
    ...customProperties,
    /** Deprecated: use `corpUserStatus`. */
    active: Type.Boolean(),
    displayName: Opt(Type.String()),
    email: Opt(Type.String()),
    title: Opt(Type.String()),
    managerUrn: Opt(UrnString()),
    departmentId: Opt(Type.Integer()),
    departmentName: Opt(Type.String()),
    firstName: Opt(Type.String()),
    lastName: Opt(Type.String()),
    fullName: Opt(Type.String()),
    countryCode: Opt(Type.String()),
    system: Opt(Type.Boolean()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    { path: 'active', fieldName: 'active', type: 'BOOLEAN' },
    {
      path: 'displayName',
      fieldName: 'displayName',
      type: 'WORD_GRAM',
      autocomplete: true,
      boost: 10,
      queryByDefault: true,
    },
    { path: 'email', fieldName: 'email', type: 'KEYWORD', queryByDefault: true },
    { path: 'title', fieldName: 'title', type: 'KEYWORD', queryByDefault: true },
    { path: 'managerUrn', fieldName: 'managerLdap', type: 'URN', queryByDefault: true },
    {
      path: 'fullName',
      fieldName: 'fullName',
      type: 'WORD_GRAM',
      autocomplete: true,
      boost: 10,
      queryByDefault: true,
    },
    { path: 'system', fieldName: 'system', type: 'BOOLEAN', queryByDefault: false },
  ],
  relationships: [{ path: 'managerUrn', name: 'ReportsTo', entityTypes: ['corpuser'] }],
}

const corpUserEditableInfo: AspectSpec = {
  name: 'corpUserEditableInfo',
  record: 'com.linkedin.identity.CorpUserEditableInfo',
  schema: Type.Object({
    aboutMe: Opt(Type.String()),
    teams: Opt(Type.Array(Type.String())),
    skills: Opt(Type.Array(Type.String())),
    pictureLink: Opt(Type.String()),
    displayName: Opt(Type.String()),
    title: Opt(Type.String()),
    platforms: Opt(Type.Array(UrnString())),
    persona: Opt(UrnString()),
    slack: Opt(Type.String()),
    phone: Opt(Type.String()),
    email: Opt(Type.String()),
    informationSources: Opt(Type.Array(UrnString())),
  }),
  searchable: [
    { path: 'teams/*', fieldName: 'teams', type: 'TEXT' },
    { path: 'skills/*', fieldName: 'skills', type: 'TEXT' },
    { path: 'displayName', fieldName: 'displayName', type: 'WORD_GRAM', boost: 10, queryByDefault: true },
  ],
  relationships: [
    { path: 'platforms/*', name: 'IsUserOf', entityTypes: ['dataPlatform'] },
    { path: 'persona', name: 'IsPersona', entityTypes: ['dataHubPersona'] },
  ],
}

const corpUserStatus: AspectSpec = {
  name: 'corpUserStatus',
  record: 'com.linkedin.identity.CorpUserStatus',
  schema: Type.Object({ status: Type.String(), lastModified: AuditStamp }),
  searchable: [
    { path: 'status', fieldName: 'status', type: 'KEYWORD' },
    { path: 'lastModified/time', fieldName: 'statusLastModifiedAt', type: 'COUNT' },
  ],
}

const corpUserCredentials: AspectSpec = {
  name: 'corpUserCredentials',
  record: 'com.linkedin.identity.CorpUserCredentials',
  schema: Type.Object({
    salt: Type.String(),
    hashedPassword: Type.String(),
    passwordResetToken: Opt(Type.String()),
    passwordResetTokenExpirationTimeMillis: Opt(Type.Integer()),
  }),
}

/** UI settings (appearance, views, notifications, home page); nested records are kept as given. */
const corpUserSettings: AspectSpec = {
  name: 'corpUserSettings',
  record: 'com.linkedin.identity.CorpUserSettings',
  schema: open({
    appearance: open({
      showSimplifiedHomepage: Opt(Type.Boolean()),
      showThemeV2: Opt(Type.Boolean()),
    }),
    views: Opt(open({ defaultView: Opt(UrnString()) })),
  }),
}

const groupMembership: AspectSpec = {
  name: 'groupMembership',
  record: 'com.linkedin.identity.GroupMembership',
  schema: Type.Object({ groups: Type.Array(UrnString()) }),
  relationships: [{ path: 'groups/*', name: 'IsMemberOfGroup', entityTypes: ['corpGroup'] }],
}

const nativeGroupMembership: AspectSpec = {
  name: 'nativeGroupMembership',
  record: 'com.linkedin.identity.NativeGroupMembership',
  schema: Type.Object({ nativeGroups: Type.Array(UrnString()) }),
  relationships: [{ path: 'nativeGroups/*', name: 'IsMemberOfNativeGroup', entityTypes: ['corpGroup'] }],
}

const roleMembership: AspectSpec = {
  name: 'roleMembership',
  record: 'com.linkedin.identity.RoleMembership',
  schema: Type.Object({ roles: Type.Array(UrnString()) }),
  searchable: [{ path: 'roles/*', fieldName: 'roles', type: 'URN', queryByDefault: false }],
  relationships: [{ path: 'roles/*', name: 'IsMemberOfRole', entityTypes: ['dataHubRole'] }],
}

const corpGroupInfo: AspectSpec = {
  name: 'corpGroupInfo',
  record: 'com.linkedin.identity.CorpGroupInfo',
  schema: Type.Object({
    displayName: Opt(Type.String()),
    email: Opt(Type.String()),
    /** Deprecated: use `ownership`. */
    admins: Type.Array(UrnString()),
    /** Deprecated: use `groupMembership` on the users. */
    members: Type.Array(UrnString()),
    /** Deprecated: unused. */
    groups: Type.Array(UrnString()),
    description: Opt(Type.String()),
    slack: Opt(Type.String()),
    created: Opt(AuditStamp),
  }),
  searchable: [
    {
      path: 'displayName',
      fieldName: 'displayName',
      type: 'TEXT_PARTIAL',
      autocomplete: true,
      boost: 10,
      queryByDefault: true,
    },
    { path: 'description', fieldName: 'description', type: 'TEXT_PARTIAL' },
    { path: 'created/time', fieldName: 'createdTime', type: 'DATETIME', queryByDefault: false },
  ],
  relationships: [
    { path: 'admins/*', name: 'OwnedBy', entityTypes: ['corpuser'] },
    { path: 'members/*', name: 'IsPartOf', entityTypes: ['corpuser'] },
    { path: 'groups/*', name: 'IsPartOf', entityTypes: ['corpGroup'] },
  ],
}

const corpGroupEditableInfo: AspectSpec = {
  name: 'corpGroupEditableInfo',
  record: 'com.linkedin.identity.CorpGroupEditableInfo',
  schema: Type.Object({
    description: Opt(Type.String()),
    pictureLink: Opt(Type.String()),
    slack: Opt(Type.String()),
    email: Opt(Type.String()),
  }),
  searchable: [{ path: 'description', fieldName: 'editedDescription', type: 'TEXT' }],
}

export const IDENTITY_ASPECTS: readonly AspectSpec[] = [
  corpUserInfo,
  corpUserEditableInfo,
  corpUserStatus,
  corpUserCredentials,
  corpUserSettings,
  groupMembership,
  nativeGroupMembership,
  roleMembership,
  corpGroupInfo,
  corpGroupEditableInfo,
]
