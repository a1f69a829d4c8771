package io.seqsync.ingress;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.ingress.health.HealthProbe;
import io.seqsync.ingress.ops.OpsMonitor;
import java.util.List;

/**
 * What operators and probes see: the meter registry ({@code /metrics}), the ops dashboard's
 * monitor, and the dependencies beyond Kafka and PostgreSQL that {@code /health/live} and
 * {@code /health/ready} name (none: they name those two only).
 */
public record Observability(PrometheusMeterRegistry registry, OpsMonitor monitor, List<HealthProbe> healthProbes) {}
