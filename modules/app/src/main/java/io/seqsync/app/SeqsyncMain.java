package io.seqsync.app;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.localstack.LocalStack;
import io.seqsync.sequencer.SequencerService;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts seqsync: the configured servers or embedded ones (see {@link LocalStack}), then the
 * sequencer. Stops everything in reverse order on SIGTERM / Ctrl-C.
 */
public final class SeqsyncMain {
  private static final Logger log = LoggerFactory.getLogger(SeqsyncMain.class);

  private SeqsyncMain() {}

  public static void main(String[] args) throws InterruptedException {
    SeqsyncConfig config = ConfigLoader.fromEnvironment();
    log.info("seqsync starting, data in {}", config.dataDir());
    LocalStack stack = LocalStack.start(config);
    SequencerService sequencer = SequencerService.start(stack.kafkaBootstrapServers(), config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      log.info("seqsync stopping");
      sequencer.close();
      stack.close();
      stopped.countDown();
    }, "seqsync-shutdown"));
    log.info("seqsync is up: Kafka {}, PostgreSQL {}, Redis {}",
        stack.kafkaBootstrapServers(), stack.postgresJdbcUrl(), stack.redisUri());
    stopped.await();
  }
}
