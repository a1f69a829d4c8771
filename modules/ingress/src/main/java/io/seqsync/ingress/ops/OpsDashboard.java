package io.seqsync.ingress.ops;

import io.seqsync.ingress.api.FetchRequest;
import io.seqsync.ingress.api.Views;
import io.seqsync.ingress.auth.Operator;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.TimedCache;
import io.seqsync.store.DeliveryCause;
import io.seqsync.store.DeliveryQueries;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The ops dashboard (docs/operations.md): the page at {@code /ops/}, its scripts and styles (uPlot
 * from its WebJar), and the JSON it polls: the live figures, the delivery figures of the last days
 * (R24), and the negative-case library by cause. Every route is for operators only
 * ({@link OpsAccess}). The delivery figures scan a day of messages each, so they are kept for
 * {@code ops.delivery-cache} whoever asks ({@link TimedCache}); the live figures are read from memory.
 */
public final class OpsDashboard {
  static final int MAX_DAYS = 31;
  static final int MAX_CASES = 100;
  static final int MAX_OFFSET = 10_000;
  private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + webJarVersion("uplot") + "/dist/";
  // The page's files by the name it asks for: nothing else under the class path is reachable.
  private static final Map<String, String[]> ASSETS = Map.of(
      "dashboard.js", new String[] {"/ops/dashboard.js", "text/javascript; charset=utf-8"},
      "dashboard.css", new String[] {"/ops/dashboard.css", "text/css; charset=utf-8"},
      "uPlot.iife.min.js", new String[] {UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
      "uPlot.min.css", new String[] {UPLOT + "uPlot.min.css", "text/css; charset=utf-8"});
  private static final String SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self';"
      + " img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

  /** A page of the library; {@code next}: the offset of the next page, null after the last. */
  record CasePage(List<DeliveryQueries.Case> cases, Integer next) {}

  private final LiveFigures live;
  private final DeliveryQueries delivery;
  private final Clock clock;
  private final byte[] page = OpsAccess.resource("/ops/index.html").getBytes(StandardCharsets.UTF_8);
  private final TimedCache<Integer, Map<String, Object>> deliveryByDays;

  public OpsDashboard(LiveFigures live, DeliveryQueries delivery, Duration deliveryCache, Clock clock) {
    this.live = live;
    this.delivery = delivery;
    this.clock = clock;
    this.deliveryByDays = new TimedCache<>(deliveryCache, clock);
  }

  /** GET /ops/. */
  public Answer page(Operator operator, ApiRequest request) {
    return new Answer(200, "text/html; charset=utf-8", page,
        Map.of("Content-Security-Policy", SECURITY_POLICY, "Cache-Control", "no-store"));
  }

  /** GET /ops/assets/{file}. */
  public Answer asset(Anyone caller, ApiRequest request) {
    String[] asset = ASSETS.get(request.pathParam("file"));
    byte[] content = asset == null ? null : OpsAccess.bytes(asset[0]);
    if (content == null) {
      throw ApiException.notFound("not_found", "no such file of the dashboard");
    }
    return new Answer(200, asset[1], content, Map.of("Cache-Control", "no-cache"));
  }

  /** GET /ops/api/live. */
  public Answer live(Operator operator, ApiRequest request) {
    return Answer.ok(live.now());
  }

  /** GET /ops/api/delivery?days=N: the figures of each of the last N UTC days (today first), cached. */
  public Answer deliveryDays(Operator operator, ApiRequest request) {
    int days = bounded(request, "days", 1, MAX_DAYS, 7);
    return Answer.ok(deliveryByDays.get(days, () -> figures(days)));
  }

  /** GET /ops/api/delivery/cases?cause=&limit=&offset=: the negative-case library, newest first. */
  public Answer cases(Operator operator, ApiRequest request) {
    String cause = request.queryParam("cause");
    List<String> causes = Arrays.stream(DeliveryCause.values()).map(DeliveryCause::column).toList();
    if (cause != null && !causes.contains(cause)) {
      throw FetchRequest.invalid("cause must be one of " + causes);
    }
    int limit = bounded(request, "limit", 1, MAX_CASES, 50);
    int offset = bounded(request, "offset", 0, MAX_OFFSET, 0);
    List<DeliveryQueries.Case> page = delivery.cases(Optional.ofNullable(cause), limit, offset);
    Integer next = page.size() == limit && offset + limit <= MAX_OFFSET ? offset + limit : null;
    return Answer.ok(new CasePage(page, next));
  }

  private Map<String, Object> figures(int days) {
    LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
    List<Views.DeliveryFigures> figures = new ArrayList<>();
    for (int back = 0; back < days; back++) {
      LocalDate day = today.minusDays(back);
      long from = day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
      long to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
      figures.add(Views.DeliveryFigures.of(day, day, delivery.renderTarget(), delivery.report(from, to)));
    }
    return Map.of("days", figures, "computedAt", clock.millis());
  }

  private static int bounded(ApiRequest request, String name, int min, int max, int fallback) {
    Long value = FetchRequest.number(request.queryParams(), name, min);
    if (value != null && value > max) {
      throw FetchRequest.invalid(name + " must be at most " + max);
    }
    return value == null ? fallback : value.intValue();
  }

  private static String webJarVersion(String artifact) {
    String path = "/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
    try (InputStream in = OpsDashboard.class.getResourceAsStream(path)) {
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (java.io.IOException | NullPointerException e) {
      throw new IllegalStateException("the " + artifact + " WebJar is missing from the class path", e);
    }
  }
}
