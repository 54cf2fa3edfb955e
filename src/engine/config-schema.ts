/**
 * The configuration file, `onedev-audit.config.json`. This zod schema is the single source:
 * the TypeScript type is inferred from it and schemas/config.schema.json (for editors) is generated
 * from it by scripts/generate.mjs, with the built-in rule ids added for completion. Loaded only when
 * there is a configuration file to read (config.ts): an audit without one does not load zod.
 */
import {z} from 'zod'

const severityOrOff = z
  .enum(['off', 'critical', 'high', 'medium', 'low', 'info'])
  .meta({description: '`off` disables the rule; a severity replaces its default severity.'})

export const ruleSettingSchema = z
  .union([
    severityOrOff,
    z.strictObject({
      severity: severityOrOff.optional(),
      options: z.record(z.string(), z.unknown()).optional().meta({description: "The rule's options (see `onedev-audit rules show ID`)."}),
    }),
  ])
  .meta({id: 'RuleSetting', description: 'A severity, `off`, or `{severity, options}`.'})

export const suppressionSchema = z
  .strictObject({
    rule: z.string().min(1).meta({description: 'Rule id; `*` matches any run of characters.'}),
    project: z.string().min(1).optional().meta({description: 'Project path pattern (`*` within a segment, `**` across). Omit for every project and for roles.'}),
    subject: z.string().min(1).optional().meta({description: 'The branch, tag, secret, role or other subject; `*` matches any run of characters.'}),
    justification: z.string().trim().min(1).meta({description: 'Why this finding is accepted. Required.'}),
    expires: z.iso.date().optional().meta({description: 'ISO date (YYYY-MM-DD); after that day the suppression stops suppressing and is reported.'}),
  })
  .meta({id: 'Suppression'})

const flag = (description: string) => z.boolean().optional().meta({description})

export const fixSchema = z
  .strictObject({
    branchProtection: z
      .strictObject({
        userMatch: z.string().min(1).optional().meta({description: 'Applicable Users of the new branch protection. Default: `anyone`.'}),
        preventForcedPush: flag('Default: true.'),
        preventDeletion: flag('Default: true.'),
        preventCreation: flag('Default: true.'),
        signatureRequired: flag('Commit Signature Required (`signatureRequired` on 8.x servers). Default: false.'),
        reviewRequirement: z.string().min(1).nullable().optional().meta({description: 'Required reviewers, e.g. `group(core-devs):2`. Default: none.'}),
        jobNames: z.array(z.string().min(1)).optional().meta({description: 'Required builds (exact job names). Default: none.'}),
      })
      .optional()
      .meta({description: 'The branch protection added for a checked branch that no protection covers (branch-protection/unprotected-branch).'}),
    tagProtection: z
      .strictObject({
        tags: z.string().min(1).optional().meta({description: 'The tag pattern set it covers. Default: the `tags` patterns, else `v*`.'}),
        userMatch: z.string().min(1).optional().meta({description: 'Default: `anyone`.'}),
        preventUpdate: flag('Default: true.'),
        preventDeletion: flag('Default: true.'),
        preventCreation: flag('Default: false: with it, no one (a release job included) can push a new tag the protection covers; OneDev has no bypass for it.'),
        signatureRequired: flag('Default: false.'),
      })
      .optional()
      .meta({description: 'The tag protection added where checked tags have none (tag-protection/unprotected-tags).'}),
  })
  .meta({id: 'FixSettings'})

export const notifySchema = z
  .strictObject({
    serverProject: z
      .string()
      .min(1)
      .optional()
      .meta({description: 'Path of the project that keeps the issue of the server-wide findings (roles, administration and security settings). Default: none: they get no issue.'}),
    fields: z
      .record(z.string().min(1), z.union([z.string(), z.array(z.string()).min(1)]))
      .optional()
      .meta({
        description:
          'Values of issue fields for the issues notify opens and the transitions it performs, a list for a field of several values (OneDev 10.0 and later; OneDev 8.x takes one value per field), e.g. {"Type": "Task", "Priority": "Major"}. Needed for a field the workflow requires (not allowed empty) that has no default.',
      }),
    closedState: z.string().min(1).optional().meta({description: 'The state notify closes its issues in, through a manual transition of the issue workflow. Default: `Closed`.'}),
  })
  .meta({id: 'NotifySettings'})

export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    rules: z.record(z.string(), ruleSettingSchema).optional().meta({description: 'Per-rule settings, keyed by rule id.'}),
    branches: z
      .array(z.string().min(1))
      .optional()
      .meta({
        description:
          'Branches judged besides each project\'s default branch: OneDev path patterns (`main`, `release/**`, `hotfix/*`) matched against the branches that exist. Default: [] (the default branch alone). On a server that cannot list branches, entries without wildcards are judged as literal names, else `main`.',
      }),
    tags: z
      .array(z.string().min(1))
      .optional()
      .meta({
        description:
          'Tags judged: OneDev path patterns (`v*`, `release/**`) matched against the tags that exist. Default: [] (every existing tag). On a server that cannot list tags, entries without wildcards are judged as literal names, else the sample `v1.0.0`.',
      }),
    allowedAdminRoles: z.array(z.string().min(1)).optional().meta({description: 'Roles allowed to hold manageProject. Default: ["Project Owner"].'}),
    protectionSemantics: z
      .enum(['first-match', 'merged'])
      .optional()
      .meta({description: 'How several protections matching one branch combine: `first-match` (OneDev 8.2 and later, the default) or `merged` (8.1 and earlier).'}),
    plugins: z
      .array(z.string().min(1))
      .optional()
      .meta({description: 'Modules exporting rules: paths relative to this file, or package names.'}),
    projects: z
      .strictObject({
        include: z.array(z.string().min(1)).optional().meta({description: 'Project path patterns to audit (default: all).'}),
        exclude: z.array(z.string().min(1)).optional().meta({description: 'Project path patterns to leave out.'}),
      })
      .optional(),
    suppressions: z.array(suppressionSchema).optional().meta({description: 'Accepted findings, each with a justification.'}),
    fix: fixSchema.optional().meta({description: 'What `onedev-audit fix` puts into a protection it adds for a branch or tags that have none.'}),
    notify: notifySchema.optional().meta({description: 'How `onedev-audit notify` keeps an issue in each project with findings.'}),
  })
  .meta({title: 'AuditConfig', description: 'Configuration of onedev-audit.'})

/**
 * The keys an object may have at `path` (a zod issue's) in what `schema` accepts: those of every
 * object schema found there, through optional, nullable, arrays, records and unions. [] when none.
 */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const expand = (candidate: z.ZodType): z.ZodType[] => {
    if (candidate instanceof z.ZodOptional || candidate instanceof z.ZodNullable || candidate instanceof z.ZodDefault) return expand(candidate.unwrap() as z.ZodType)
    if (candidate instanceof z.ZodUnion) return (candidate.options as z.ZodType[]).flatMap(expand)
    return [candidate]
  }
  let here = expand(schema)
  for (const step of path) {
    here = here.flatMap((candidate) => {
      if (candidate instanceof z.ZodObject) return typeof step === 'string' && Object.hasOwn(candidate.shape, step) ? expand(candidate.shape[step] as z.ZodType) : []
      if (candidate instanceof z.ZodArray) return typeof step === 'number' ? expand(candidate.element as z.ZodType) : []
      if (candidate instanceof z.ZodRecord) return expand(candidate.valueType as z.ZodType)
      return []
    })
  }
  return [...new Set(here.flatMap((candidate) => (candidate instanceof z.ZodObject ? Object.keys(candidate.shape) : [])))]
}

export type AuditConfig = z.infer<typeof configSchema>
export type RuleSetting = z.infer<typeof ruleSettingSchema>
export type Suppression = z.infer<typeof suppressionSchema>
export type NotifyConfig = z.infer<typeof notifySchema>
