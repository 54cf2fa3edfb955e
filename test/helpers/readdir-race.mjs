// Preloaded with `node --import` by test/generated.test.ts: fs.readdir answers the directory
// commands/issue-setting only after commands/rules, the order libuv's thread pool sometimes gives
// under load (a full `npm test`). oclif's command discovery (tinyglobby → fdir) reads both
// concurrently and lists commands in the order the answers arrive.
import fs from 'node:fs'

const original = fs.readdir
let rulesAnswered = false
const held = []

fs.readdir = function readdir(path, ...rest) {
  const callback = rest.pop()
  const dir = String(path).replace(/[\\/]+$/, '')
  if (/[\\/]commands[\\/]rules$/.test(dir)) {
    return original.call(fs, path, ...rest, (...answer) => {
      callback(...answer)
      rulesAnswered = true
      for (const release of held.splice(0)) release()
    })
  }
  if (/[\\/]commands[\\/]issue-setting$/.test(dir)) {
    return original.call(fs, path, ...rest, (...answer) => {
      if (rulesAnswered) callback(...answer)
      else held.push(() => callback(...answer))
    })
  }
  return original.call(fs, path, ...rest, callback)
}
