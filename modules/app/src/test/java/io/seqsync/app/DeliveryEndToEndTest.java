package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.metric;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Delivery acceptance over real HTTP on the real stack: render reports (R24) and render failures
 * (R17) go through the telemetry topic and the delivery projector into PostgreSQL, and come back
 * as the period's figures and negative cases (GET /ops/delivery). Bad reports are refused and change
 * nothing. One test: the figures count every message of the class's app.
 */
// Its own app: the period's figures count every send and report the app holds.
@EndToEndApps.OwnApp
class DeliveryEndToEndTest extends EndToEndTest {
  private static final String CONV = "d:501:502";

  @Test
  void rendersAndFailuresBecomeTheFiguresAndTheCaseLibrary() {
    ApiClient alice = client(501, "phone");
    ApiClient bobLaptop = client(502, "laptop");
    List<JsonNode> sent = send(alice, CONV, 3);
    long created = sent.get(0).get("createTime").asLong();
    ApiClient operator = EndToEnd.operator(app);
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    String figures = "/ops/delivery?from=" + today.minusDays(1) + "&to=" + today.plusDays(1);
    assertThat(ok(operator.get(figures)).get("sends").asLong()).isEqualTo(3);
    assertThat(new ApiClient(app.httpPort(), null).get(figures).status()).as("no token").isEqualTo(401);
    assertThat(alice.get(figures).status()).as("a user's token").isEqualTo(403);

    // Each refused batch starts with a valid late render of message 3: had any of it been taken,
    // message 3 would count as delivered and as a slow delivery below.
    String late = rendered(sent.get(2), created, created + 60_000);
    assertThat(bobLaptop.post("/v1/telemetry/rendered", items(late, "{\"msgId\":\"0\",\"convId\":\"" + CONV
        + "\",\"seq\":1,\"sendTime\":1,\"renderTime\":2}")).status()).isEqualTo(400);
    assertThat(bobLaptop.post("/v1/telemetry/rendered", items(late, "{\"msgId\":\"12\",\"convId\":\"" + CONV
        + "\",\"seq\":1,\"renderTime\":2}")).status()).isEqualTo(400);
    assertThat(bobLaptop.post("/v1/telemetry/failures", items(failure(sent.get(0), " "))).status()).isEqualTo(400);
    assertThat(bobLaptop.post("/v1/telemetry/failures", items(failure(sent.get(0), "x".repeat(501)))).status())
        .isEqualTo(400);
    assertThat(bobLaptop.post("/v1/telemetry/rendered", "{\"items\":[]}").status()).isEqualTo(400);
    assertThat(bobLaptop.post("/v1/telemetry/rendered", items(late.repeat(101).replace("}{", "},{"))).status())
        .isEqualTo(413);
    assertThat(bobLaptop.post("/v1/telemetry/rendered", items(late, late.replace(CONV, "d:598:599"))).status())
        .isEqualTo(403);
    assertThat(client(503, "phone").post("/v1/telemetry/rendered", items(late)).status()).isEqualTo(403);
    assertThat(operator.post("/v1/telemetry/rendered", items(late)).status()).isEqualTo(401);
    assertThat(operator.get("/ops/delivery?from=" + today + "&to=" + today).status()).isEqualTo(400);
    assertThat(operator.get("/ops/delivery?from=2026-13-01").status()).isEqualTo(400);
    assertThat(operator.get("/ops/delivery?from=" + today.minusDays(93) + "&to=" + today).status()).isEqualTo(400);

    ApiClient bobPhone = client(502, "phone");
    accepted(bobLaptop.post("/v1/telemetry/rendered", items(rendered(sent.get(0), created - 40, created + 260),
        rendered(sent.get(1), created - 40, created + 90_000))));
    accepted(bobPhone.post("/v1/telemetry/rendered", items(rendered(sent.get(0), created - 40, created + 900))));
    accepted(bobPhone.post("/v1/telemetry/failures", items(failure(sent.get(2), "unsupported message type"))));
    // The sender's own other device, a repeat, and a report naming no message: none is a delivery.
    accepted(client(501, "tablet").post("/v1/telemetry/rendered", items(rendered(sent.get(2), created, created + 10))));
    accepted(bobLaptop.post("/v1/telemetry/rendered", items(rendered(sent.get(0), created - 40, created + 260))));
    accepted(bobLaptop.post("/v1/telemetry/failures", items("{\"msgId\":\"" + (sent.get(2).get("msgId").asLong() + 7)
        + "\",\"convId\":\"" + CONV + "\",\"seq\":3,\"reason\":\"forged\"}")));

    JsonNode answer = await(() -> ok(operator.get(figures)),
        body -> body.get("cases").size() == 2 && metric(app, "seqsync_delivery_reports_total", "unmatched") == 1);
    assertThat(answer.get("renderTargetMs").asLong()).isEqualTo(2_000);
    assertThat(answer.get("sends").asLong()).isEqualTo(3);
    assertThat(answer.get("delivered").asLong()).as("messages 1 and 2").isEqualTo(2);
    assertThat(answer.get("deliveredOnTime").asLong()).isEqualTo(1);
    assertThat(answer.get("deliveryRate").asDouble()).isEqualTo(2.0 / 3);
    assertThat(answer.get("latencyMs").get("p50").asLong()).as("message 1's first render").isEqualTo(300);
    assertThat(answer.get("latencyMs").get("max").asLong()).isEqualTo(90_040);
    assertThat(answer.get("cases").get("render_failed").asLong()).isEqualTo(1);
    assertThat(answer.get("cases").get("slow_delivery").asLong()).isEqualTo(1);
    assertThat(metric(app, "seqsync_delivery_reports_total", "rendered")).isEqualTo(4);
  }

  private static String rendered(JsonNode message, long sendTime, long renderTime) {
    return "{\"msgId\":\"" + message.get("msgId").asText() + "\",\"convId\":\"" + CONV + "\",\"seq\":"
        + message.get("seq").asLong() + ",\"sendTime\":" + sendTime + ",\"renderTime\":" + renderTime + "}";
  }

  private static String failure(JsonNode message, String reason) {
    return "{\"msgId\":\"" + message.get("msgId").asText() + "\",\"convId\":\"" + CONV + "\",\"seq\":"
        + message.get("seq").asLong() + ",\"reason\":\"" + reason + "\"}";
  }

  private static String items(String... items) {
    return "{\"items\":[" + String.join(",", items) + "]}";
  }
}
