/**
 * The compliance frameworks the built-in rules are mapped to, in the order reports show them (one
 * module per framework release; catalogs/ holds the lists of controls they are checked against).
 * Loaded on demand (src/engine/compliance.ts, builtinFrameworks): commands that show no compliance never read it.
 */
import type {FrameworkMapping} from '../../src/engine/compliance.js'
import {cisSscs} from './cis-sscs-1.0.js'
import {ospsBaseline} from './osps-baseline-2026-02-19.js'

export const FRAMEWORKS: readonly FrameworkMapping[] = [cisSscs, ospsBaseline]
