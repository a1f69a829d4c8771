package io.seqsync.consumers;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates seqsync's topics where missing and refuses to run on topics of the wrong shape. */
public final class TopicAdmin {
  private static final Logger log = LoggerFactory.getLogger(TopicAdmin.class);

  private TopicAdmin() {}

  /**
   * Creates the missing topics; fails when an existing one has another partition count, because
   * repartitioning would move conversations between partitions and break their order. Returns the
   * names of the topics the cluster held before.
   */
  public static Set<String> ensure(KafkaConnection kafka, Topics topics, short replicationFactor) {
    Properties props = kafka.properties();
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> missing = topics.all().stream()
          .filter(topic -> !existing.contains(topic.name()))
          .map(topic -> topic.newTopic(replicationFactor))
          .toList();
      if (!missing.isEmpty()) {
        admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        log.info("created topics {}", missing.stream().map(NewTopic::name).toList());
      }
      Map<String, TopicDescription> described = describe(admin, topics.all().stream().map(Topic::name).toList());
      for (Topic<?, ?> topic : topics.all()) {
        int actual = described.get(topic.name()).partitions().size();
        if (actual != topic.partitions()) {
          throw new IllegalStateException("topic " + topic.name() + " has " + actual
              + " partitions, the configuration says " + topic.partitions() + ": refusing to reorder conversations");
        }
        // Replicas can be added to a topic later (kafka-reassign-partitions) without moving a
        // conversation, so another count is worth a warning, not a refusal to start.
        int replicas = described.get(topic.name()).partitions().get(0).replicas().size();
        if (replicas != replicationFactor) {
          log.warn("topic {} has {} replicas, the configuration says {} (kafka.replication-factor)",
              topic.name(), replicas, replicationFactor);
        }
      }
      awaitLeaders(admin, described.values().stream()
          .collect(Collectors.toMap(TopicDescription::name, topic -> topic.partitions().size())));
      return existing;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create or describe topics on " + kafka + ": " + e.getMessage(), e);
    }
  }

  // Topics just created may not be in every broker's metadata yet (KRaft propagates it
  // asynchronously): a retriable error is retried for a while, anything else fails at once.
  private static Map<String, TopicDescription> describe(Admin admin, List<String> names)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  /**
   * Returns once the leader of every partition of these topics (name to partition count) serves
   * it. KRaft hands leadership over asynchronously after a topic is created or the broker restarted,
   * and an idempotent producer sending sooner had its first batch refused (not leader) while later
   * ones were appended, then retried that first batch out of sequence until its delivery timeout
   * dropped it (seen in TopicScanTest on a loaded machine). Asking each leader for its end offset
   * waits for exactly that: the admin client retries a partition whose leader does not serve yet.
   */
  public static void awaitLeaders(Admin admin, Map<String, Integer> partitionCounts) {
    Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
    partitionCounts.forEach((topic, count) -> {
      for (int partition = 0; partition < count; partition++) {
        partitions.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
    });
    try {
      admin.listOffsets(partitions).all().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the leaders of " + partitionCounts.keySet(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the leaders of " + partitionCounts.keySet() + " do not serve: " + e.getMessage(), e);
    }
  }
}
