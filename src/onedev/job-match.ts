/**
 * Job-match expressions (`SC/job/match/JobMatch.g4`), as used by a job secret's `authorization`:
 *
 *   on branch "main"                      on branch "main", "release/*"
 *   "Job" is "deploy"                     "Project" is not "a/b", "c"
 *   on branch "main" and not("Job" is "x")   (on branch "a" or on branch "b")
 *
 * Tokens are separated by single spaces (the grammar's only whitespace); keywords are lower-case;
 * a quoted value is non-empty and `\` escapes the next character. `and` binds tighter than `or`,
 * both associate to the left, as in OneDev's left-recursive ANTLR rule. Older servers also knew
 * `submitted by user "x"`, `submitted by group "x"` and `non-pull-request commits`; they are parsed
 * so such settings are judged rather than rejected.
 *
 * Parsing is a hand-written recursive descent over a bounded token list: nothing is evaluated.
 */
import type {SecretAuthorization} from '../model/types.js'
import {pathMatcher, stringMatcher} from './matchers.js'
import {matchesArbitraryNames, parsePatternSet, type PatternSet, tryParsePatternSet} from './pattern-set.js'
import {type EmptySecretAuthorizationReading, JOB_SECRET_EMPTY_AUTHORIZATION, type Reading, readingAt, type Release} from './versions.js'

export type JobMatchField = 'Project' | 'Job'

export type JobMatchExpression =
  | {type: 'on-branch'; patterns: string[]}
  | {type: 'field'; field: JobMatchField; operator: 'is' | 'is not'; values: string[]}
  | {type: 'submitted-by'; kind: 'user' | 'group'; values: string[]}
  | {type: 'non-pull-request-commits'}
  | {type: 'and'; left: JobMatchExpression; right: JobMatchExpression}
  | {type: 'or'; left: JobMatchExpression; right: JobMatchExpression}
  | {type: 'not'; operand: JobMatchExpression}

export class JobMatchSyntaxError extends Error {
  /** Character offset in the expression where parsing failed. */
  readonly position: number

  constructor(message: string, position: number) {
    super(`Malformed job match: ${message} at position ${position}`)
    this.name = 'JobMatchSyntaxError'
    this.position = position
  }
}

/** Longer inputs are refused rather than parsed: no real authorization comes close. */
export const MAX_JOB_MATCH_LENGTH = 10_000
/** Nesting of not(...) and parentheses; bounds the recursion. */
const MAX_DEPTH = 100

type Token =
  | {kind: 'quoted'; value: string; at: number}
  | {kind: 'keyword'; value: Keyword; at: number}
  | {kind: '(' | ')' | ','; at: number}

type Keyword = 'on branch' | 'is' | 'is not' | 'and' | 'or' | 'not' | 'submitted by user' | 'submitted by group' | 'non-pull-request commits'

/** Characters of the grammar's `Identifier` token: a run of them is one word. */
const WORD = /[a-zA-Z0-9:_/\\+\-;]/

/** Multi-word keywords: the grammar joins their words with one or more single spaces. */
const PHRASES: Array<{words: string[]; keyword: Keyword}> = [
  {words: ['on', 'branch'], keyword: 'on branch'},
  {words: ['is', 'not'], keyword: 'is not'},
  {words: ['submitted', 'by', 'user'], keyword: 'submitted by user'},
  {words: ['submitted', 'by', 'group'], keyword: 'submitted by group'},
  {words: ['non-pull-request', 'commits'], keyword: 'non-pull-request commits'},
]
const SINGLE: ReadonlySet<string> = new Set(['is', 'and', 'or', 'not'])

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  // First pass: split into quoted strings, punctuation and words; remember words for phrases.
  const raw: Array<{kind: 'word'; word: string; at: number} | Token> = []
  while (i < text.length) {
    const char = text[i]!
    if (char === ' ') {
      i++
    } else if (char === '(' || char === ')' || char === ',') {
      raw.push({kind: char, at: i})
      i++
    } else if (char === '"') {
      const start = i
      let value = ''
      i++
      for (;;) {
        if (i >= text.length) throw new JobMatchSyntaxError('unterminated quoted value', start)
        const c = text[i]!
        if (c === '\\') {
          if (i + 1 >= text.length) throw new JobMatchSyntaxError('unterminated quoted value', start)
          value += text[i + 1]
          i += 2
        } else if (c === '"') {
          i++
          break
        } else {
          value += c
          i++
        }
      }
      if (value === '') throw new JobMatchSyntaxError('empty quoted value', start)
      raw.push({kind: 'quoted', value, at: start})
    } else if (WORD.test(char)) {
      const start = i
      while (i < text.length && WORD.test(text[i]!)) i++
      raw.push({kind: 'word', word: text.slice(start, i), at: start})
    } else {
      throw new JobMatchSyntaxError(`unexpected character ${JSON.stringify(char)}`, i)
    }
  }
  // Second pass: words into keywords (longest phrase first), anything else is an error.
  for (let k = 0; k < raw.length; k++) {
    const item = raw[k]!
    if (item.kind !== 'word') {
      tokens.push(item)
      continue
    }
    const phrase = PHRASES.find(({words: ws}) => ws.every((w, j) => {
      const next = raw[k + j]
      return next !== undefined && next.kind === 'word' && next.word === w
    }))
    if (phrase) {
      tokens.push({kind: 'keyword', value: phrase.keyword, at: item.at})
      k += phrase.words.length - 1
    } else if (SINGLE.has(item.word)) {
      tokens.push({kind: 'keyword', value: item.word as Keyword, at: item.at})
    } else {
      throw new JobMatchSyntaxError(`unexpected word ${JSON.stringify(item.word)}`, item.at)
    }
  }
  return tokens
}

class Parser {
  private index = 0

  constructor(private readonly tokens: Token[], private readonly length: number) {}

  parse(): JobMatchExpression {
    if (this.tokens.length === 0) throw new JobMatchSyntaxError('empty expression', 0)
    const expression = this.or(0)
    const rest = this.peek()
    if (rest) throw new JobMatchSyntaxError(`unexpected ${describeToken(rest)}`, rest.at)
    return expression
  }

  private peek(): Token | undefined {
    return this.tokens[this.index]
  }

  private position(): number {
    return this.peek()?.at ?? this.length
  }

  private isKeyword(value: Keyword): boolean {
    const token = this.peek()
    return token?.kind === 'keyword' && token.value === value
  }

  private expect(kind: '(' | ')'): void {
    const token = this.peek()
    if (token?.kind !== kind) throw new JobMatchSyntaxError(`expected '${kind}'${token ? ` but found ${describeToken(token)}` : ''}`, this.position())
    this.index++
  }

  private or(depth: number): JobMatchExpression {
    let left = this.and(depth)
    while (this.isKeyword('or')) {
      this.index++
      left = {type: 'or', left, right: this.and(depth)}
    }
    return left
  }

  private and(depth: number): JobMatchExpression {
    let left = this.primary(depth)
    while (this.isKeyword('and')) {
      this.index++
      left = {type: 'and', left, right: this.primary(depth)}
    }
    return left
  }

  private primary(depth: number): JobMatchExpression {
    if (depth > MAX_DEPTH) throw new JobMatchSyntaxError('nested too deeply', this.position())
    const token = this.peek()
    if (!token) throw new JobMatchSyntaxError('expected a criterion', this.length)
    if (token.kind === '(') {
      this.index++
      const inner = this.or(depth + 1)
      this.expect(')')
      return inner
    }
    if (token.kind === 'quoted') {
      this.index++
      if (token.value !== 'Project' && token.value !== 'Job') throw new JobMatchSyntaxError(`invalid field ${JSON.stringify(token.value)}`, token.at)
      const operator = this.peek()
      if (operator?.kind !== 'keyword' || (operator.value !== 'is' && operator.value !== 'is not')) {
        throw new JobMatchSyntaxError(`expected 'is' or 'is not' after "${token.value}"`, this.position())
      }
      this.index++
      return {type: 'field', field: token.value, operator: operator.value, values: this.quotedList()}
    }
    if (token.kind === 'keyword') {
      switch (token.value) {
        case 'not':
          this.index++
          this.expect('(')
          {
            const operand = this.or(depth + 1)
            this.expect(')')
            return {type: 'not', operand}
          }
        case 'on branch':
          this.index++
          return {type: 'on-branch', patterns: this.quotedList()}
        case 'submitted by user':
        case 'submitted by group':
          this.index++
          return {type: 'submitted-by', kind: token.value === 'submitted by user' ? 'user' : 'group', values: this.quotedList()}
        case 'non-pull-request commits':
          this.index++
          return {type: 'non-pull-request-commits'}
        default:
          break
      }
    }
    throw new JobMatchSyntaxError(`expected a criterion but found ${describeToken(token)}`, token.at)
  }

  /** `"a"` or `"a", "b", ...` */
  private quotedList(): string[] {
    const values: string[] = []
    for (;;) {
      const token = this.peek()
      if (token?.kind !== 'quoted') throw new JobMatchSyntaxError('expected a quoted value', this.position())
      values.push(token.value)
      this.index++
      if (this.peek()?.kind !== ',') return values
      this.index++
    }
  }
}

function describeToken(token: Token): string {
  if (token.kind === 'quoted') return `"${token.value}"`
  if (token.kind === 'keyword') return `'${token.value}'`
  return `'${token.kind}'`
}

/** Parses a job-match expression; throws JobMatchSyntaxError when OneDev would not accept it. */
export function parseJobMatch(text: string): JobMatchExpression {
  if (text.length > MAX_JOB_MATCH_LENGTH) throw new JobMatchSyntaxError(`longer than ${MAX_JOB_MATCH_LENGTH} characters`, MAX_JOB_MATCH_LENGTH)
  return new Parser(tokenize(text), text.length).parse()
}

/** Three-valued truth: `unknown` is "could be either, depending on what the writer chooses". */
export type Truth = 'true' | 'false' | 'unknown'

function and3(a: Truth, b: Truth): Truth {
  if (a === 'false' || b === 'false') return 'false'
  return a === 'true' && b === 'true' ? 'true' : 'unknown'
}

function or3(a: Truth, b: Truth): Truth {
  if (a === 'true' || b === 'true') return 'true'
  return a === 'false' && b === 'false' ? 'false' : 'unknown'
}

function not3(a: Truth): Truth {
  return a === 'true' ? 'false' : a === 'false' ? 'true' : 'unknown'
}

/**
 * Whether one path pattern matches names anyone could pick (`**`, `*`, `feature/**`). A job match's
 * `on branch` and `"Project" is` values are each one such pattern, never a pattern set: OneDev judges
 * them with `WildcardUtils.matchPath(value, name)` (`OnBranchCriteria`, `ProjectCriteria`; the same
 * since 8.0.5), so `on branch "-main"` names the branch `-main` and `on branch "main dev"` the branch
 * `main dev`. (8.x's `authorizedBranches` was a pattern set: assessSecretAuthorization.)
 */
export function pathPatternIsArbitrary(pattern: string): boolean {
  return matchesArbitraryNames({includes: [pattern], excludes: [], matches: (value, matcher) => matcher(pattern, value)}, pathMatcher)
}

/** Whether one `on branch` value matches `branch`, as OneDev judges it: one path pattern (pathPatternIsArbitrary). */
export function onBranchMatches(pattern: string, branch: string): boolean {
  return pathMatcher(pattern, branch)
}

/**
 * Does a build of a commit on a branch that a writer freely created (and whose build spec they
 * wrote) satisfy the expression? `on branch p` is true when p matches arbitrary branch names and
 * false otherwise; `"Job"`/`"Project"` criteria and the submitter are unknown (the writer names the
 * jobs in their own build spec); a push build is not a pull request.
 */
export function arbitraryBranchTruth(expression: JobMatchExpression): Truth {
  return branchTruth(expression, (patterns) => patterns.some(pathPatternIsArbitrary))
}

/**
 * The truth of an expression for a push build (not a pull request) whose `on branch` criteria are
 * decided by `onBranch`; `"Job"`/`"Project"` criteria and the submitter are unknown.
 */
export function branchTruth(expression: JobMatchExpression, onBranch: (patterns: string[]) => boolean): Truth {
  return truthOf(expression, (criterion) => {
    if (criterion.type === 'on-branch') return onBranch(criterion.patterns) ? 'true' : 'false'
    return criterion.type === 'non-pull-request-commits' ? 'true' : 'unknown'
  })
}

type Criterion = Exclude<JobMatchExpression, {type: 'and' | 'or' | 'not'}>

/** Three-valued evaluation: `leaf` judges each criterion, and/or/not combine as in OneDev. */
function truthOf(expression: JobMatchExpression, leaf: (criterion: Criterion) => Truth): Truth {
  switch (expression.type) {
    case 'and':
      return and3(truthOf(expression.left, leaf), truthOf(expression.right, leaf))
    case 'or':
      return or3(truthOf(expression.left, leaf), truthOf(expression.right, leaf))
    case 'not':
      return not3(truthOf(expression.operand, leaf))
    default:
      return leaf(expression)
  }
}

/**
 * Does a build in a project its writer freely created (or any project the expression does not name)
 * satisfy the expression? `"Project" is p` is true when p matches arbitrary project paths, `is not`
 * is true (a new project is not in the list); `on branch` is true (the project's creator creates its
 * branches); `"Job"` criteria and the submitter are unknown; a push build is not a pull request.
 */
export function arbitraryProjectTruth(expression: JobMatchExpression): Truth {
  return truthOf(expression, (criterion) => {
    if (criterion.type === 'field' && criterion.field === 'Project') {
      return criterion.operator === 'is not' || criterion.values.some(pathPatternIsArbitrary) ? 'true' : 'false'
    }
    return criterion.type === 'on-branch' || criterion.type === 'non-pull-request-commits' ? 'true' : 'unknown'
  })
}

/** Whether a build of a project the expression does not name may satisfy it (true or unknown). */
export function admitsArbitraryProject(expression: JobMatchExpression | string): boolean {
  const parsed = typeof expression === 'string' ? parseJobMatch(expression) : expression
  return arbitraryProjectTruth(parsed) !== 'false'
}

/** Whether a build on a branch a writer can freely create may satisfy the expression (true or unknown). */
export function admitsArbitraryBranch(expression: JobMatchExpression | string): boolean {
  const parsed = typeof expression === 'string' ? parseJobMatch(expression) : expression
  return arbitraryBranchTruth(parsed) !== 'false'
}

/** A value quoted the way OneDev writes it: `"` and `\` escaped. */
export function quoteJobMatchValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}

const PRECEDENCE: Record<JobMatchExpression['type'], number> = {
  'or': 1,
  'and': 2,
  'on-branch': 3,
  'field': 3,
  'submitted-by': 3,
  'non-pull-request-commits': 3,
  'not': 3,
}

/** The expression in OneDev's canonical form (single spaces, minimal parentheses). */
export function describeJobMatch(expression: JobMatchExpression): string {
  const list = (values: string[]) => values.map(quoteJobMatchValue).join(', ')
  const child = (e: JobMatchExpression, min: number) => (PRECEDENCE[e.type] < min ? `(${describeJobMatch(e)})` : describeJobMatch(e))
  switch (expression.type) {
    case 'on-branch':
      return `on branch ${list(expression.patterns)}`
    case 'field':
      return `${quoteJobMatchValue(expression.field)} ${expression.operator} ${list(expression.values)}`
    case 'submitted-by':
      return `submitted by ${expression.kind} ${list(expression.values)}`
    case 'non-pull-request-commits':
      return 'non-pull-request commits'
    case 'not':
      return `not(${describeJobMatch(expression.operand)})`
    case 'and':
      return `${child(expression.left, 2)} and ${child(expression.right, 3)}`
    case 'or':
      return `${child(expression.left, 1)} or ${child(expression.right, 2)}`
  }
}

/** Every branch pattern the expression mentions, in order, without duplicates. */
export function branchPatternsOf(expression: JobMatchExpression): string[] {
  const out: string[] = []
  const visit = (e: JobMatchExpression): void => {
    if (e.type === 'on-branch') {
      for (const p of e.patterns) if (!out.includes(p)) out.push(p)
    } else if (e.type === 'and' || e.type === 'or') {
      visit(e.left)
      visit(e.right)
    } else if (e.type === 'not') {
      visit(e.operand)
    }
  }
  visit(expression)
  return out
}

/** How far a job secret's authorization reaches, broadest first. */
export type SecretBreadth =
  /** current `authorization: null`: any job, including pull requests from forks */
  | 'any-job'
  /** a build on a branch any writer can create may use it (legacy null `authorizedBranches` meant `**`) */
  | 'arbitrary-branches'
  /** limited to branches a writer cannot freely create (e.g. `main`) */
  | 'scoped'
  /** the text does not parse; the server cannot apply it either */
  | 'invalid'

export interface SecretAuthorizationAssessment {
  breadth: SecretBreadth
  /** The authorization as written (legacy pattern set or job-match expression); null when absent. */
  text: string | null
  expression?: JobMatchExpression
  patternSet?: PatternSet
  /** An empty job-match authorization: how the server's version reads it (versions.ts JOB_SECRET_EMPTY_AUTHORIZATION). */
  byVersion?: Reading<EmptySecretAuthorizationReading>
  /** What an empty authorization stands for on the server's version (`non-pull-request commits`), parsed as `expression`; absent when it is any job. */
  implied?: string
}

/** What an empty job-match authorization stands for, by reading (versions.ts); null: nothing, every build. */
const IMPLIED_AUTHORIZATION: Record<EmptySecretAuthorizationReading, string | null> = {'any-branch': 'on branch "**"', 'non-pull-request': 'non-pull-request commits', 'any-job': null}

/**
 * Judges a job secret's authorization by the rules of the server generation it came from (§2, §5),
 * and an empty job-match authorization by the server's release (null: unknown, judged as any job).
 * It depends on the text (and the run's release) alone: the facts of a run (src/engine/facts.ts)
 * assess each distinct text once and share the result, so never modify it.
 */
export function assessSecretAuthorization(authorization: SecretAuthorization, release: Release | null = null): SecretAuthorizationAssessment {
  if (authorization.kind === 'branches') {
    const text = authorization.branches
    if (text === null || text.trim() === '') return {breadth: 'arbitrary-branches', text: null}
    let patternSet: PatternSet
    try {
      patternSet = parsePatternSet(text)
    } catch {
      return {breadth: 'invalid', text}
    }
    return {breadth: matchesArbitraryNames(patternSet, pathMatcher) ? 'arbitrary-branches' : 'scoped', text, patternSet}
  }
  const text = authorization.expression
  if (text === null || text.trim() === '') {
    const byVersion = readingAt(JOB_SECRET_EMPTY_AUTHORIZATION, release)
    const implied = IMPLIED_AUTHORIZATION[byVersion.reading]
    if (implied === null) return {breadth: 'any-job', text: null, byVersion}
    const expression = parseJobMatch(implied)
    return {breadth: admitsArbitraryBranch(expression) ? 'arbitrary-branches' : 'scoped', text: null, expression, byVersion, implied}
  }
  let expression: JobMatchExpression
  try {
    expression = parseJobMatch(text)
  } catch {
    return {breadth: 'invalid', text}
  }
  return {breadth: admitsArbitraryBranch(expression) ? 'arbitrary-branches' : 'scoped', text, expression}
}

const BREADTH_RANK: Record<SecretBreadth, number> = {'invalid': 0, 'scoped': 1, 'arbitrary-branches': 2, 'any-job': 3}

/** Compares breadth classes: positive when `a` reaches further than `b`. */
export function compareBreadth(a: SecretBreadth, b: SecretBreadth): number {
  return BREADTH_RANK[a] - BREADTH_RANK[b]
}

function conjuncts(expression: JobMatchExpression): JobMatchExpression[] {
  return expression.type === 'and' ? [...conjuncts(expression.left), ...conjuncts(expression.right)] : [expression]
}

/** A criterion `a` that admits no build `b` refuses: the same criterion, or `on branch` with fewer patterns. */
function criterionImplies(a: JobMatchExpression, b: JobMatchExpression): boolean {
  if (a.type === 'on-branch' && b.type === 'on-branch') return b.patterns.includes('**') || a.patterns.every((p) => b.patterns.includes(p))
  return describeJobMatch(a) === describeJobMatch(b)
}

/**
 * Whether every build that `narrower` admits is provably admitted by `wider` too (a syntactic,
 * conservative check: false means "not proven", not "broader"). For job matches: every conjunct of
 * `wider` is implied by some conjunct of `narrower` (so `on branch "main" and "Job" is "x"` is
 * narrower than `on branch "main"`, and `on branch "main"` than `on branch "main", "dev"`). For
 * legacy pattern sets: `narrower` includes no more and excludes no less.
 */
export function isProvablyWithin(narrower: SecretAuthorizationAssessment, wider: SecretAuthorizationAssessment): boolean {
  // `any-job`, or a legacy null that meant `**`: nothing reaches further.
  if (wider.breadth === 'any-job' || (wider.text === null && wider.breadth === 'arbitrary-branches')) return true
  if (narrower.expression && wider.expression) {
    const narrowParts = conjuncts(narrower.expression)
    return conjuncts(wider.expression).every((w) => narrowParts.some((n) => criterionImplies(n, w)))
  }
  if (narrower.patternSet && wider.patternSet) {
    const n = narrower.patternSet
    const w = wider.patternSet
    if (w.excludes.length === 0 && w.includes.includes('**')) return true
    return n.includes.length > 0 && n.includes.every((p) => w.includes.includes(p)) && w.excludes.every((p) => n.excludes.includes(p))
  }
  return false
}

/** How an authorization's reach changed: judged by breadth class first, then by provable containment. */
export type ReachChange = 'same' | 'widened' | 'narrowed' | 'changed'

/** The `on branch` patterns of an expression made of `on branch` criteria joined by `or` only; null for any other. */
function orOfBranches(expression: JobMatchExpression): string[] | null {
  if (expression.type === 'on-branch') return [...expression.patterns]
  if (expression.type !== 'or') return null
  const left = orOfBranches(expression.left)
  const right = left && orOfBranches(expression.right)
  return left && right ? [...left, ...right] : null
}

/**
 * The plain branch list an authorization amounts to, when it is one: legacy includes without excludes,
 * or `on branch` criteria joined by `or` (8.0.5's migration wrote `main dev` as `(on branch "main" or on branch "dev")`).
 */
function plainBranches(assessment: SecretAuthorizationAssessment): string[] | null {
  if (assessment.patternSet && assessment.patternSet.excludes.length === 0) return [...assessment.patternSet.includes]
  return assessment.expression ? orOfBranches(assessment.expression) : null
}

/**
 * Compares two authorizations of one job secret (either payload generation on either side: a legacy
 * `authorizedBranches: "main"` and a current `on branch "main"` reach the same builds). `changed`
 * means neither is provably within the other (e.g. `on branch "main"` → `on branch "release"`).
 */
export function compareReach(before: SecretAuthorizationAssessment, after: SecretAuthorizationAssessment): ReachChange {
  const breadth = compareBreadth(after.breadth, before.breadth)
  if (breadth > 0) return 'widened'
  if (breadth < 0) return 'narrowed'
  const a = plainBranches(before)
  const b = plainBranches(after)
  if (a && b) {
    const aInB = a.every((p) => b.includes(p)) || b.includes('**')
    const bInA = b.every((p) => a.includes(p)) || a.includes('**')
    return aInB && bInA ? 'same' : aInB ? 'widened' : bInA ? 'narrowed' : 'changed'
  }
  if (before.text === after.text) return 'same'
  const beforeWithin = isProvablyWithin(before, after)
  const afterWithin = isProvablyWithin(after, before)
  return beforeWithin && afterWithin ? 'same' : beforeWithin ? 'widened' : afterWithin ? 'narrowed' : 'changed'
}

/** Whether a job-names pattern set (string matcher, as role job privileges use) matches every job; null or empty counts as every job. */
export function jobNamesMatchEveryJob(jobNames: string | null): boolean {
  if (jobNames === null || jobNames.trim() === '') return true
  const set = tryParsePatternSet(jobNames)
  return set !== null && matchesArbitraryNames(set, stringMatcher)
}
