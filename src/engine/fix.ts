/**
 * How a rule says a finding can be cleared: edits of the setting it judged, which `onedev-audit fix`
 * proves (every active rule judges the edited setting again) and applies. Built-in rules and plugins
 * use exactly this shape (docs/fix.md, docs/plugins.md).
 *
 * The edits are RFC 6902 JSON Patch operations (`replace`, `add`, `remove`) on the OWN setting of the
 * project that holds the deciding setting, as the server sends it (`GET /projects/{id}/setting`):
 * that is the finding's `sourceProjectId` when it sets one (an inherited protection is fixed in the
 * parent that holds it), else the judged project. Paths are JSON pointers into that payload, in its
 * payload generation (`signatureRequired` on 8.x, `commitSignatureRequired` on 16.x; a job secret's
 * `authorizedBranches` on 8.x, `authorization` on 16.x): the model's pointers (`signaturePointer`,
 * `authorization.pointer`) already name the right member. One extension: `set-scheme` changes the
 * scheme of the URL at `path` and keeps the rest of it, so a URL whose secret parts the model only
 * knows redacted can still be moved to `https://` without the plan ever holding the secret.
 *
 * What the planner refuses, whatever a rule offers: an edit of a field that holds a secret (a
 * redacted value, or a value the redaction would mask), a job secret authorization set to null or
 * `""` (that opens the secret to every job), and any change the rules do not prove.
 */

/** One JSON Patch operation (RFC 6902), or the `set-scheme` extension. */
export type FixEdit =
  | {op: 'replace'; path: string; value: unknown}
  | {op: 'add'; path: string; value: unknown}
  | {op: 'remove'; path: string}
  | {op: 'set-scheme'; path: string; value: 'https' | 'http'}

/**
 * `fix`: applied by default; for changes that block destructive actions and rarely change how
 * people work. `suggestion`: planned only with `--suggestions` or when its rule is named with
 * `--rule` (requiring signatures or reviews, narrowing a secret, ...).
 */
export type FixKind = 'fix' | 'suggestion'

export interface FixDraft {
  kind: FixKind
  /** One line, what the change does: `Prevent Forced Push on the branch protection /branchProtections/1 ("develop")`. */
  description: string
  /** Applied in order to the owning project's own setting; paths as the payload is before the first one. */
  edits: FixEdit[]
}

/**
 * The fields of a protection `fix` adds where a checked branch or tag has none (the `fix` key of the
 * configuration). The branch protection blocks destructive actions and asks nothing else by default:
 * adding reviewers or required builds changes how people work, which is the owner's decision.
 */
export interface NewProtectionSettings {
  branch: {
    userMatch: string
    preventForcedPush: boolean
    preventDeletion: boolean
    preventCreation: boolean
    signatureRequired: boolean
    reviewRequirement: string | null
    jobNames: string[]
  }
  tag: {
    /** The tag pattern set the new protection covers; null: the configuration's `tags`, else `v*`. */
    tags: string | null
    userMatch: string
    preventUpdate: boolean
    preventDeletion: boolean
    preventCreation: boolean
    signatureRequired: boolean
  }
}

export const DEFAULT_NEW_PROTECTIONS: NewProtectionSettings = {
  branch: {userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, preventCreation: true, signatureRequired: false, reviewRequirement: null, jobNames: []},
  // Creation stays allowed: OneDev's hook has no bypass for it, so preventing it stops every new
  // release tag (a CI job's included). Update and deletion are what rewrite or lose a release.
  tag: {tags: null, userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: false, signatureRequired: false},
}
