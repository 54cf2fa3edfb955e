#!/usr/bin/env node
import module from 'node:module'

// Node 22.1 and later keep the compiled code of every module loaded here in a cache on disk (in
// the temporary directory): later starts skip most of the parsing and compiling. Older Node: no-op.
module.enableCompileCache?.()

const {execute} = await import('@oclif/core/execute')
await execute({dir: import.meta.url})
