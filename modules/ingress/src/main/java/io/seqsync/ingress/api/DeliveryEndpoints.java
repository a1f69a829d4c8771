package io.seqsync.ingress.api;

import io.seqsync.events.Topic;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.auth.Operator;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.ingress.http.TimedCache;
import io.seqsync.store.DeliveryQueries;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Delivery acceptance: clients' reports of what they rendered (R24) and could not render (R17),
 * each written to the telemetry topic keyed by its convId and answered 202 once Kafka has them
 * all; and the figures computed from them (GET /ops/delivery, operators only, each period's kept a
 * while like the dashboard's: a period scans its messages). The caller of a report must belong to
 * every conversation it names, as for acks.
 */
public final class DeliveryEndpoints {
  private final AccessControl access;
  private final CommandPublisher publisher;
  private final Topic<String, DeliveryReport> telemetry;
  private final DeliveryQueries figures;
  private final TimedCache<DeliveryRequests.Period, Views.DeliveryFigures> figuresByPeriod;
  private final Clock clock;

  public DeliveryEndpoints(AccessControl access, CommandPublisher publisher, Topic<String, DeliveryReport> telemetry,
      DeliveryQueries figures, Duration figuresCache, Clock clock) {
    this.access = access;
    this.publisher = publisher;
    this.telemetry = telemetry;
    this.figures = figures;
    this.figuresByPeriod = new TimedCache<>(figuresCache, clock);
    this.clock = clock;
  }

  /** POST /v1/telemetry/rendered {items:[{msgId, convId, seq, sendTime, renderTime}]}. */
  public CompletableFuture<Answer> rendered(Caller caller, ApiRequest request) {
    return record(caller, DeliveryRequests.rendered(Json.object(request.body())));
  }

  /** POST /v1/telemetry/failures {items:[{msgId, convId, seq, reason}]}. */
  public CompletableFuture<Answer> failures(Caller caller, ApiRequest request) {
    return record(caller, DeliveryRequests.failures(Json.object(request.body())));
  }

  /** GET /ops/delivery?from=YYYY-MM-DD&to=YYYY-MM-DD: the figures of the messages sent in that period. */
  public Answer figures(Operator operator, ApiRequest request) {
    DeliveryRequests.Period period =
        DeliveryRequests.period(request.queryParam("from"), request.queryParam("to"), LocalDate.now(clock));
    return Answer.ok(figuresByPeriod.get(period, () -> Views.DeliveryFigures.of(period.from(), period.to(),
        figures.renderTarget(), figures.report(period.fromMillis(), period.toMillis()))));
  }

  private CompletableFuture<Answer> record(Caller caller, List<DeliveryRequests.Item> items) {
    new LinkedHashSet<>(items.stream().map(DeliveryRequests.Item::convId).toList())
        .forEach(convId -> access.requireMember(caller, convId));
    long receivedAt = clock.millis();
    List<CompletableFuture<?>> published = items.stream()
        .<CompletableFuture<?>>map(item -> publisher.publish(telemetry, item.convId().value(), new DeliveryReport(
            caller.userId(), caller.deviceId(), item.convId().value(), item.seq(), item.msgId(), receivedAt, item.outcome())))
        .toList();
    return PositionEndpoints.answerWhenDurable(published, "not every report could be written to Kafka; retry them");
  }
}
