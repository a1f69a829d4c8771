package io.seqsync.ingress;

import io.seqsync.events.Topic;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;

/**
 * What the ingress writes to Kafka and hears back: the commands' producer, the waiter of their
 * replies, and the telemetry topic that delivery reports go to.
 */
public record CommandChannels(CommandPublisher publisher, ReplyWaiter replies, Topic<String, DeliveryReport> telemetry) {}
