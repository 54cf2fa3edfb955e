/**
 * Enabled Kubernetes executors with a cluster role: OneDev binds it, cluster-wide, to the service
 * account of each job's pods.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {CLUSTER_ADMIN, KUBERNETES_EXECUTOR} from '../../src/onedev/executor-settings.js'
import {describeReach, enabledExecutors} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'
import {EXECUTORS_UI} from '../support/executor-findings.js'

export default defineRule({
  meta: {
    id: 'server/kubernetes-cluster-role',
    shortDescription: 'A Kubernetes executor binds a cluster role to every job it runs',
    fullDescription:
      'Reports enabled Kubernetes executors with a Cluster Role: for each job OneDev creates a ClusterRoleBinding of that role to the service ' +
      "account of the job's pods, so every job the executor takes holds the role in every namespace of the cluster. Critical for `cluster-admin`, " +
      'high for any other role.',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'For each job a Kubernetes executor with a *Cluster Role* creates a `ClusterRoleBinding` named after the job\'s namespace, whose subject is',
      'the `default` service account of that namespace and whose role is the executor\'s cluster role (v16.5.6 KubernetesExecutor.java:482–496,',
      ':689–690; the same since v8.0.0, :577–614, :842). The job\'s commands run with that account\'s token, and a ClusterRoleBinding applies in every',
      'namespace. A job is whatever the build spec of the commit says: with `cluster-admin` it can do anything in the cluster (read every secret,',
      'OneDev\'s own if it runs there, start privileged pods on any node); other roles give what they grant, everywhere (`edit` and `admin` read',
      'secrets and create pods in every namespace).',
      '',
      '## Fix',
      'In *Administration → Job Executors*, edit the Kubernetes executor and clear *Cluster Role* (under *More Settings*). If some jobs must',
      'drive the cluster, give them an executor of their own with the narrowest role that works (not `cluster-admin`, `admin` or `edit`) and',
      'a *Job Match* limited to named projects and protected branches.',
      '',
      '## Example',
      '```json',
      '{"@type": "KubernetesExecutor", "enabled": true, "name": "k8s", "clusterRole": "cluster-admin"}       // critical',
      '{"@type": "KubernetesExecutor", "enabled": true, "name": "k8s", "clusterRole": "pod-reader"}          // high',
      '{"@type": "KubernetesExecutor", "enabled": true, "name": "k8s", "clusterRole": null}                  // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors', 'kubernetes'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    for (const {executor, assessment} of enabledExecutors(jobExecutorsOf(context.model), KUBERNETES_EXECUTOR, serverRelease(context.model))) {
      const role = executor.clusterRole
      if (role === null) continue
      const admin = role === CLUSTER_ADMIN
      drafts.push({
        subject: executor.name,
        severity: admin ? 'critical' : 'high',
        message:
          `Kubernetes executor "${executor.name}" binds cluster role "${role}", cluster-wide, to the service account of each job it takes (${describeReach(assessment)}): ` +
          `${admin ? 'a job can do anything in the cluster, read every secret and start privileged pods on any node' : 'a job holds whatever that role grants in every namespace'}. ` +
          `In ${EXECUTORS_UI} clear its Cluster Role, or keep the jobs that need one on an executor of their own with a narrow role and Job Match.`,
        pointer: `${executor.pointer}/clusterRole`,
      })
    }
    return drafts
  },
})
