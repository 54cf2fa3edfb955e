/**
 * The part of NIST's OSCAL 1.1.3 Assessment Results model that `scan --format oscal` writes, as
 * TypeScript types of our own (written from the model's documentation, not generated from NIST's
 * schema, which the tests validate the output against: ../shared/oscal/). Every array here has at
 * least one item when written: OSCAL's arrays are `minItems: 1`, so an empty one is left out.
 */

/** A `uuid` of OSCAL: version 4 or 5 (ours are 5: src/report/oscal.ts). */
export type OscalUuid = string
/** A date-time with a time zone (`2026-11-01T03:00:00.000Z`). */
export type OscalDateTime = string

export interface OscalProperty {
  /** A token: a letter or `_`, then letters, digits, `.`, `-`, `_`. */
  name: string
  /** Where the name is defined: ours are in OSCAL_NAMESPACE. */
  ns?: string
  /** One line: no leading or trailing whitespace, no line break. */
  value: string
  remarks?: string
}

export interface OscalLink {
  href: string
  rel?: string
  text?: string
}

export interface OscalMetadata {
  title: string
  'last-modified': OscalDateTime
  version: string
  'oscal-version': string
  props?: OscalProperty[]
  links?: OscalLink[]
  remarks?: string
}

export interface OscalComponent {
  uuid: OscalUuid
  type: 'software' | 'service'
  title: string
  description: string
  props?: OscalProperty[]
  links?: OscalLink[]
  status: {state: 'operational'}
}

export interface OscalInventoryItem {
  uuid: OscalUuid
  description: string
  props?: OscalProperty[]
  'implemented-components'?: Array<{'component-uuid': OscalUuid}>
}

export interface OscalAssessmentPlatform {
  uuid: OscalUuid
  title: string
  'uses-components': Array<{'component-uuid': OscalUuid}>
}

export interface OscalControlSelection {
  props?: OscalProperty[]
  links?: OscalLink[]
  'include-controls': Array<{'control-id': string}>
  remarks?: string
}

/** Who found it: the tool, a component of the result's assessment assets. */
export interface OscalOrigin {
  actors: Array<{type: 'tool'; 'actor-uuid': OscalUuid}>
}

export interface OscalSubjectReference {
  'subject-uuid': OscalUuid
  type: 'component' | 'inventory-item'
  title?: string
}

export interface OscalEvidence {
  description: string
  props?: OscalProperty[]
  remarks?: string
}

export interface OscalObservation {
  uuid: OscalUuid
  title: string
  description: string
  props?: OscalProperty[]
  methods: Array<'TEST' | 'EXAMINE'>
  types?: Array<'finding' | 'control-objective'>
  origins: OscalOrigin[]
  subjects?: OscalSubjectReference[]
  'relevant-evidence'?: OscalEvidence[]
  collected: OscalDateTime
  remarks?: string
}

export interface OscalRisk {
  uuid: OscalUuid
  title: string
  description: string
  statement: string
  props?: OscalProperty[]
  status: 'open' | 'deviation-approved'
  'related-observations'?: Array<{'observation-uuid': OscalUuid}>
}

export interface OscalFinding {
  uuid: OscalUuid
  title: string
  description: string
  props?: OscalProperty[]
  origins: OscalOrigin[]
  target: {
    type: 'objective-id'
    /** The prefixed control id (`cis-sscs-1.1.16`). */
    'target-id': string
    title: string
    status: {state: 'satisfied' | 'not-satisfied'; reason: 'pass' | 'fail' | 'other'; remarks?: string}
  }
  'related-observations'?: Array<{'observation-uuid': OscalUuid}>
  'related-risks'?: Array<{'risk-uuid': OscalUuid}>
  remarks?: string
}

export interface OscalResult {
  uuid: OscalUuid
  title: string
  description: string
  start: OscalDateTime
  end: OscalDateTime
  props?: OscalProperty[]
  'local-definitions': {
    components: OscalComponent[]
    'inventory-items'?: OscalInventoryItem[]
    'assessment-assets': {components: OscalComponent[]; 'assessment-platforms': OscalAssessmentPlatform[]}
  }
  'reviewed-controls': {'control-selections': OscalControlSelection[]; remarks?: string}
  observations?: OscalObservation[]
  risks?: OscalRisk[]
  findings?: OscalFinding[]
  remarks?: string
}

export interface OscalAssessmentResults {
  $schema?: string
  'assessment-results': {
    uuid: OscalUuid
    metadata: OscalMetadata
    'import-ap': {href: string; remarks?: string}
    results: OscalResult[]
  }
}
