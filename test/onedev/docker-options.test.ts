/**
 * Run Options as OneDev splits them (theonedev/commons commons-utils StringUtils.parseQuoteTokens,
 * ≥ 3.0.3; OneDev v16.5.6 ServerDockerExecutor.java:373) and docker reads them (docker/cli v29.7.2
 * cli/command/container/opts.go), and which options hand a job the host.
 */
import {describe, expect, it} from 'vitest'

import {exposesDockerSocket, parseDockerOptions, riskyDockerOptions, splitRunOptions} from '../../src/onedev/docker-options.js'

describe('splitRunOptions: the tokens OneDev adds to docker run', () => {
  it.each([
    ['--memory 2g', ['--memory', '2g']],
    ['  --memory   2g  ', ['--memory', '2g']],
    ['-e "A=b c" --label x', ['-e', 'A=b c', '--label', 'x']],
    ['-e A="b c"', ['-e', 'A=b c']],
    ['-e A=\\"b', ['-e', 'A="b']],
    ['-e A=b\\ c', ['-e', 'A=b c']],
    // Single quotes are ordinary characters for OneDev (docker then sees them).
    ["-e 'A=b c'", ['-e', "'A=b", "c'"]],
    ['""', []],
    ['-e ""', ['-e']],
    // Tabs and line breaks split too (OneDev before 10.9.9; on later servers such a token makes docker fail).
    ['--privileged\t-v\n/a:/b', ['--privileged', '-v', '/a:/b']],
    // A quote left open runs to the end, as in OneDev.
    ['-e "A=b --privileged', ['-e', 'A=b --privileged']],
    // Redacted text reads like any value.
    ['-e NPM_TOKEN=<redacted> --network host', ['-e', 'NPM_TOKEN=<redacted>', '--network', 'host']],
  ])('%j', (text, tokens) => {
    expect(splitRunOptions(text)).toEqual(tokens)
  })
})

describe('parseDockerOptions: what docker reads', () => {
  it('long options with = or a separate value, booleans without', () => {
    expect(parseDockerOptions(['--network=host', '--pid', 'host', '--privileged', '--read-only', 'x'])).toEqual([
      {name: 'network', value: 'host'},
      {name: 'pid', value: 'host'},
      {name: 'privileged', value: null},
      {name: 'read-only', value: null},
    ])
  })

  it('a value-taking option takes the next token whatever it looks like', () => {
    expect(parseDockerOptions(['-e', '--privileged', '--label', '--network=host'])).toEqual([
      {name: 'env', value: '--privileged'},
      {name: 'label', value: '--network=host'},
    ])
  })

  it('clustered short options: booleans, then one that takes the rest or the next token', () => {
    expect(parseDockerOptions(['-it', '-dv/var/run/docker.sock:/s', '-e=A=1', '-v', '/x:/y'])).toEqual([
      {name: 'interactive', value: null},
      {name: 'tty', value: null},
      {name: 'detach', value: null},
      {name: 'volume', value: '/var/run/docker.sock:/s'},
      {name: 'env', value: 'A=1'},
      {name: 'volume', value: '/x:/y'},
    ])
  })

  it('an option docker does not know takes no value, so the next token is still read', () => {
    expect(parseDockerOptions(['--frobnicate', '--privileged'])).toEqual([
      {name: 'frobnicate', value: null},
      {name: 'privileged', value: null},
    ])
  })
})

describe('riskyDockerOptions', () => {
  const options = (text: string) => riskyDockerOptions(text).map((r) => `${r.kind}: ${r.option}`)

  it.each([
    ['--privileged', ['privileged: --privileged']],
    ['--privileged=true', ['privileged: --privileged']],
    ['--network host', ['host-namespace: --network host']],
    ['--network=host', ['host-namespace: --network host']],
    ['--net=host', ['host-namespace: --net host']],
    ['--network name=host,alias=x', ['host-namespace: --network host']],
    ['--pid=host --ipc host --userns=host', ['host-namespace: --pid host', 'host-namespace: --ipc host', 'host-namespace: --userns host']],
    ['--cap-add SYS_ADMIN', ['capability: --cap-add SYS_ADMIN']],
    ['--cap-add=cap_sys_admin', ['capability: --cap-add cap_sys_admin']],
    ['--cap-add ALL', ['capability: --cap-add ALL']],
    ['--cap-add sys_module', ['capability: --cap-add sys_module']],
    ['--security-opt seccomp=unconfined', ['unconfined: --security-opt seccomp=unconfined']],
    ['--security-opt=apparmor:unconfined', ['unconfined: --security-opt apparmor:unconfined']],
    ['--security-opt label=disable --security-opt systempaths=unconfined', ['unconfined: --security-opt label=disable', 'unconfined: --security-opt systempaths=unconfined']],
    ['-v /var/run/docker.sock:/var/run/docker.sock', ['docker-socket: -v /var/run/docker.sock:…']],
    ['--volume=/run/user/1000/docker.sock:/var/run/docker.sock:ro', ['docker-socket: -v /run/user/1000/docker.sock:…']],
    ['-v /var/run:/host-run', ['docker-socket: -v /var/run:…']],
    ['-v /:/host', ['docker-socket: -v /:…']],
    ['-v //var//run/:/r', ['docker-socket: -v //var//run/:…']],
    ['--mount type=bind,source=/var/run/docker.sock,target=/var/run/docker.sock', ['docker-socket: --mount source=/var/run/docker.sock']],
    ['--mount "type=bind,src=/run,dst=/r"', ['docker-socket: --mount source=/run']],
    ['--use-api-socket', ['docker-socket: --use-api-socket']],
    ['"--privileged"', ['privileged: --privileged']],
    ['-e NPM_TOKEN=<redacted> --network host -e B=<redacted>', ['host-namespace: --network host']],
    ['--frobnicate --privileged', ['privileged: --privileged']],
  ])('%j is reported', (text, found) => {
    expect(options(text)).toEqual(found)
  })

  it.each([
    '--memory 2g',
    '--cap-drop ALL',
    '--cap-add NET_ADMIN',
    '--privileged=false',
    '-e --privileged',
    '-e PRIVILEGED=--privileged',
    '--label "note=--privileged --network host"',
    '--label=--network=host',
    '--network my-net',
    '--network hostile',
    '--pid container:abc',
    '--security-opt no-new-privileges',
    '--security-opt seccomp=/etc/profile.json',
    '-v /var/run/docker.sock',
    '-v docker.sock:/var/run/docker.sock',
    '-v /srv/cache:/cache',
    '-v /var/run/docker.sock.d:/d',
    '--mount type=volume,source=/var/run/docker.sock,target=/s',
    '--mount source=/var/run/docker.sock,target=/s',
    '--tmpfs /run',
    '-e NPM_TOKEN=<redacted>',
    '',
  ])('%j is not', (text) => {
    expect(options(text)).toEqual([])
  })

  it('host paths that are or hold the Docker socket', () => {
    expect(['/var/run/docker.sock', '/run/docker.sock', '/', '/run/', '/var/./run', '/home/ci/.docker/run/docker.sock'].map(exposesDockerSocket)).toEqual([true, true, true, true, true, true])
    expect(['docker.sock', '/var/run/docker', '/var/run/docker.socket', '/var', '/run/containerd', 'C:\\docker.sock'].map(exposesDockerSocket)).toEqual([false, false, false, false, false, false])
  })

  it('what is shown holds no more of a value than what makes it risky', () => {
    expect(options('--network name=host,alias=CANARY-7f3a --mount type=bind,source=/var/run/docker.sock,target=/s,CANARY-7f3a')).toEqual([
      'host-namespace: --network host',
      'docker-socket: --mount source=/var/run/docker.sock',
    ])
  })

  it('hostile text: long values are shortened in what is shown, and the work stays linear', () => {
    const long = `/${'a'.repeat(5000)}/docker.sock`
    const [risk] = riskyDockerOptions(`-v ${long}:/s`)
    expect(risk!.option.length).toBeLessThanOrEqual(130)
    expect(riskyDockerOptions(`${'-e x '.repeat(20_000)}--privileged`)).toHaveLength(1)
  })
})
