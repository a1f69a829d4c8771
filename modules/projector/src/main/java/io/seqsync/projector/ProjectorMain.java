package io.seqsync.projector;

import io.micrometer.core.instrument.logging.LoggingMeterRegistry;
import io.seqsync.config.ConfigException;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.projector.postgres.DeliveryLedger;
import io.seqsync.store.Database;
import io.seqsync.store.keys.ContentOpener;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the projectors alone against external servers: the event projector and the delivery
 * projector, announcing the outcomes on Kafka. {@code SEQSYNC_KAFKA_BOOTSTRAP_SERVERS} and
 * {@code SEQSYNC_POSTGRES_JDBC_URL} are required. Stops cleanly on SIGTERM; exits with 1 when the event
 * projector fails for good. Metrics are logged once a minute.
 */
public final class ProjectorMain {
  private static final Logger log = LoggerFactory.getLogger(ProjectorMain.class);
  // Each projector uses one connection at a time; a third covers the offsets read on a rebalance.
  private static final int POOL_SIZE = 3;

  private ProjectorMain() {}

  public static void main(String[] args) throws InterruptedException {
    SeqsyncConfig config = ConfigLoader.fromEnvironment();
    KafkaConnection kafka = KafkaConnection.configured(config.kafka(),
        required(config.kafka().bootstrapServers(), "SEQSYNC_KAFKA_BOOTSTRAP_SERVERS"));
    String jdbcUrl = required(config.postgres().jdbcUrl(), "SEQSYNC_POSTGRES_JDBC_URL");
    log.info("projector starting: group {}, Kafka {}", config.projector().groupId(), kafka);
    Topics topics = Topics.from(config.kafka());
    TopicAdmin.ensure(kafka, topics, config.kafka().replicationFactor());

    Database database = Database.open(jdbcUrl, config.postgres().user(), config.postgres().password(), POOL_SIZE);
    LoggingMeterRegistry registry = new LoggingMeterRegistry();
    AnnouncementPublisher announcements = new AnnouncementPublisher(kafka, topics.announcements(), registry);
    Projector projector = new Projector(kafka, topics, database, announcements, registry, config.projector(),
        ContentOpener.of(config, database.jdbi()));
    DeliveryProjector deliveries = new DeliveryProjector(kafka, topics.telemetry(), config.delivery().groupId(),
        database, new DeliveryLedger(config.delivery().renderTarget()), config.projector(), registry);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      deliveries.close();
      projector.close();
      announcements.close();
      database.close();
      registry.close();
    }, "projector-shutdown"));
    projector.start();
    deliveries.start();
    try {
      projector.stopped().get();
    } catch (ExecutionException e) {
      log.error("projector failed", e.getCause());
      System.exit(1);
    }
  }

  private static String required(Optional<String> value, String variable) {
    return value.orElseThrow(() -> new ConfigException("set " + variable + ": the projector runs against external servers"));
  }
}
