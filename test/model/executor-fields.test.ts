/**
 * The executor fields the executor rules read, parsed from the shapes OneDev writes
 * (test/helpers/executor-payloads.ts): Run Options, publishing, the Kubernetes cluster role.
 */
import {describe, expect, it} from 'vitest'

import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {dockerExecutor, kubernetesExecutor} from '../helpers/executor-payloads.js'
import {serverModel} from '../rules/server/helpers.js'

const parsed = (...list: Record<string, unknown>[]) =>
  jobExecutorsOf(serverModel({'/settings/job-executors': list}))?.map(({name, runOptions, htmlReportPublishEnabled, sitePublishEnabled, clusterRole}) => ({name, runOptions, htmlReportPublishEnabled, sitePublishEnabled, clusterRole}))

describe('executor fields', () => {
  it('16.5.6: run options as written, publishing flags, the cluster role; blank text is none', () => {
    expect(
      parsed(
        dockerExecutor('16.5.6', 'ServerDockerExecutor', 'docker', null, {runOptions: '--memory 2g "--label" "a b"', htmlReportPublishEnabled: true}),
        dockerExecutor('16.5.6', 'RemoteDockerExecutor', 'agents', null, {runOptions: '  ', sitePublishEnabled: true}),
        kubernetesExecutor('16.5.6', 'k8s', 'cluster-admin'),
        kubernetesExecutor('16.5.6', 'k8s-blank', ''),
      ),
    ).toEqual([
      {name: 'docker', runOptions: '--memory 2g "--label" "a b"', htmlReportPublishEnabled: true, sitePublishEnabled: false, clusterRole: null},
      {name: 'agents', runOptions: null, htmlReportPublishEnabled: false, sitePublishEnabled: true, clusterRole: null},
      {name: 'k8s', runOptions: null, htmlReportPublishEnabled: false, sitePublishEnabled: false, clusterRole: 'cluster-admin'},
      {name: 'k8s-blank', runOptions: null, htmlReportPublishEnabled: false, sitePublishEnabled: false, clusterRole: null},
    ])
  })

  it('8.0.0: no htmlReportPublishEnabled (JobExecutor.java:34–44): off', () => {
    expect(parsed(dockerExecutor('8.0.0', 'ServerDockerExecutor', 'docker', null, {runOptions: '--privileged', sitePublishEnabled: true}))).toEqual([
      {name: 'docker', runOptions: '--privileged', htmlReportPublishEnabled: false, sitePublishEnabled: true, clusterRole: null},
    ])
  })

  it('a field of the wrong type leaves the executor out, as any other bad item', () => {
    expect(parsed(dockerExecutor('16.5.6', 'ServerDockerExecutor', 'bad', null, {runOptions: 42}), kubernetesExecutor('16.5.6', 'k8s', null, {clusterRole: ['x']}), kubernetesExecutor('16.5.6', 'ok', null))?.map((e) => e.name)).toEqual(['ok'])
  })
})
