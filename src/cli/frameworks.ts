import type {FrameworkMapping} from '../engine/compliance.js'

/** The built-in mapping (rules/compliance/), loaded when a command needs it: the engine is below the rules. */
export async function builtinFrameworks(): Promise<readonly FrameworkMapping[]> {
  const {FRAMEWORKS} = await import('../../rules/compliance/index.js')
  return FRAMEWORKS
}
