import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const monitoring = join(root, 'monitoring');

/** Metric names the services register (`name: '...'` in their metrics modules) and prom-client's defaults. */
const exposedMetrics = (): Set<string> => {
  const files = [
    join(root, 'packages/platform/src/metrics.ts'),
    ...readdirSync(join(root, 'services'))
      .map((s) => join(root, 'services', s, 'src/metrics.ts'))
      .filter((f) => existsSync(f)),
  ];
  const names = new Set<string>();
  for (const f of files)
    for (const m of readFileSync(f, 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(m[1]!);
  return names;
};
/** Metrics from elsewhere: Prometheus itself, prom-client's process metrics, RabbitMQ's plugin. */
const external = [/^up$/, /^process_[a-z_]+$/, /^rabbitmq_detailed_queue_messages$/];

/** The metric names a PromQL expression reads (identifiers before `{`, `[` or an operator). */
const metricsIn = (expr: string): string[] => {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, '{}');
  const keywords = new Set([
    'sum',
    'by',
    'rate',
    'increase',
    'max',
    'histogram_quantile',
    'unless',
    'changes',
    'and',
    'or',
    'without',
    'le',
  ]);
  return [...withoutStrings.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((n) => (!keywords.has(n) && /_/.test(n)) || n === 'up')
    .filter(
      (n) =>
        ![
          'service',
          'queue',
          'type',
          'chain',
          'code',
          'outcome',
          'template',
          'route',
          'pod',
          'kind',
          'result',
          'verdict',
        ].includes(n),
    );
};
const known = (name: string, exposed: Set<string>) =>
  exposed.has(name.replace(/_(bucket|count|sum)$/, '')) || external.some((r) => r.test(name));

describe('monitoring', () => {
  const rules = parse(readFileSync(join(monitoring, 'alerts.yaml'), 'utf8')) as {
    groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
  };
  const alerts = rules.groups.flatMap((g) => g.rules);

  it('alert rules pass promtool test rules (monitoring/alerts.test.yaml)', function () {
    if (spawnSync('promtool', ['--version']).error) {
      console.log(
        '      promtool not installed (Debian: apt-get install -y prometheus): alert rule tests skipped',
      );
      return this.skip();
    }
    const out = execFileSync('promtool', ['test', 'rules', 'alerts.test.yaml'], {
      cwd: monitoring,
      encoding: 'utf8',
    });
    expect(out).to.contain('SUCCESS');
  });

  it('every alert and dashboard query reads metrics the services expose', () => {
    const exposed = exposedMetrics();
    expect(exposed).to.include('messages_handled_total').and.include('chain_rpc_errors_total');
    expect(alerts.length).to.be.greaterThan(10);
    for (const a of alerts) {
      const names = metricsIn(a.expr);
      expect(names, a.alert).to.not.be.empty;
      for (const n of names) expect(known(n, exposed), `${a.alert}: ${n}`).to.equal(true);
    }
    const dashboard = JSON.parse(readFileSync(join(monitoring, 'grafana-dashboard.json'), 'utf8'));
    const panels = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(new Set(dashboard.panels.map((p: { id: number }) => p.id)).size).to.equal(dashboard.panels.length);
    for (const p of panels) {
      expect(p.targets, p.title).to.not.be.empty;
      for (const t of p.targets)
        for (const n of metricsIn(t.expr)) expect(known(n, exposed), `${p.title}: ${n}`).to.equal(true);
    }
  });

  it("Prometheus scrapes the annotated pods as the alerts' job, sending the metrics token every service reads", () => {
    const scrape = parse(readFileSync(join(monitoring, 'prometheus-scrape.yaml'), 'utf8')) as {
      scrape_configs: Array<{
        job_name: string;
        authorization?: { type: string; credentials_file: string };
        relabel_configs: Array<{ source_labels: string[]; action?: string; regex?: string }>;
      }>;
    };
    const [job] = scrape.scrape_configs;
    // ServiceDown reads `up{job="stablepay"}`.
    expect(alerts.find((a) => a.alert === 'ServiceDown')!.expr).to.contain(`job="${job!.job_name}"`);
    expect(job!.authorization).to.deep.equal({
      type: 'Bearer',
      credentials_file: '/etc/prometheus/secrets/stablepay-metrics/token',
    });
    expect(job!.relabel_configs[0]).to.deep.include({
      source_labels: ['__meta_kubernetes_pod_annotation_prometheus_io_scrape'],
      action: 'keep',
    });

    const k8s = join(root, 'k8s/base');
    const deployments = readdirSync(k8s)
      .flatMap((f) => parseAllDocuments(readFileSync(join(k8s, f), 'utf8')).map((d) => d.toJS()))
      .filter(
        (o) => o?.kind === 'Deployment' && o.spec.template.metadata.annotations?.['prometheus.io/scrape'],
      );
    expect(deployments.length).to.equal(12);
    for (const d of deployments) {
      const env = d.spec.template.spec.containers[0].env as Array<{ name: string; valueFrom?: any }>;
      expect(
        env.find((e) => e.name === 'METRICS_TOKEN')?.valueFrom,
        `${d.metadata.name} reads METRICS_TOKEN`,
      ).to.deep.equal({ secretKeyRef: { name: 'stablepay-secrets', key: 'METRICS_TOKEN' } });
    }
  });

  it('the expression parser finds metric names and refuses invented ones', () => {
    expect(
      metricsIn('sum by (chain) (rate(chain_rpc_errors_total{kind="timeout"}[5m])) > 0.5'),
    ).to.deep.equal(['chain_rpc_errors_total']);
    expect(known('relayer_gas_balance_wei', exposedMetrics())).to.equal(false);
  });
});
