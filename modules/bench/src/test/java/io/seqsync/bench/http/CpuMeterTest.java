package io.seqsync.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Threads are counted to the component that runs them, the broker being what is left. */
class CpuMeterTest {
  @Test
  void threadsGoToTheirComponent() {
    assertThat(CpuMeter.group("main")).as("the send schedule").isEqualTo("load generator");
    assertThat(CpuMeter.group("bench-http-client")).isEqualTo("load generator");
    assertThat(CpuMeter.group("bench-tracer")).isEqualTo("tracer");
    assertThat(CpuMeter.group("reference-http-27")).isEqualTo("reference");
    assertThat(CpuMeter.group("kafka-producer-network-thread | reference-http")).isEqualTo("reference");
    assertThat(CpuMeter.group("ingress-replies-listener")).isEqualTo("ingress");
    assertThat(CpuMeter.group("kafka-producer-network-thread | seqsync-projector-announcements")).isEqualTo("projector");
    assertThat(CpuMeter.group("redis-subscriber-seqsync:push")).isEqualTo("ingress");
    assertThat(CpuMeter.group("JettyServerThreadPool-41")).isEqualTo("ingress");
    assertThat(CpuMeter.group("kafka-producer-network-thread | seqsync-ingress")).isEqualTo("ingress");
    assertThat(CpuMeter.group("seqsync-projector-listeners")).isEqualTo("projector");
    assertThat(CpuMeter.group("seqsync-delivery-projector")).isEqualTo("projector");
    assertThat(CpuMeter.group("kafka-coordinator-heartbeat-thread | seqsync-delivery")).isEqualTo("projector");
    assertThat(CpuMeter.group("seqsync-archive")).isEqualTo("projector");
    assertThat(CpuMeter.group("seqsync-sequencer-0b1-StreamThread-1")).isEqualTo("sequencer");
    assertThat(CpuMeter.group("data-plane-kafka-request-handler-0")).isEqualTo("Kafka broker");
  }
}
