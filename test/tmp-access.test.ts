import {it} from 'vitest'
import {runCli} from './helpers/cli.js'
import {serverEnv, startFixtureServer} from './helpers/fixture-server.js'
it('prints', async () => {
  const server = await startFixtureServer()
  for (const args of [['access', '--project', '2'], ['access', '--project', '3', '--principal', 'everyone', '--format', 'json'], ['access', '--project', '2', '--principal', 'nobody']]) {
    const r = await runCli(args, {env: serverEnv(server)})
    console.log(r.code, r.stdout, r.stderr)
  }
  await server.close()
}, 60000)
