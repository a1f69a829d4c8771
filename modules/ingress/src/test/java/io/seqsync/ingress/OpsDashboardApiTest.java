package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.ops.Latencies;
import io.seqsync.ingress.ops.OpsAccess;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ops dashboard's routes on a real ingress and PostgreSQL: the sign-in form's cookie, the
 * page's security headers, the JSON's parameters (400 for bad ones), the case library's order and
 * pages, and the live figures before the monitor's first look.
 */
class OpsDashboardApiTest {
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerClass(Map.of());

  private String operator() {
    return stack.app().tokens.mintOperator(Duration.ofMinutes(5));
  }

  @Test
  void signingInSetsAStrictHttpOnlyCookieThatOpensTheDashboardUntilSignOut() {
    Http http = stack.app().http;
    Http.Response signedIn = http.send(form("token=" + operator()));
    assertThat(signedIn.status()).isEqualTo(303);
    assertThat(signedIn.headers().firstValue("Location")).contains("/ops/");
    String cookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).startsWith(OpsAccess.COOKIE + "=").contains("HttpOnly", "SameSite=Strict", "Path=/ops")
        .containsPattern("Max-Age=(29[0-9]|300);");
    String pair = cookie.substring(0, cookie.indexOf(';'));

    Http.Response page = http.send(http.builder("/ops/", null).header("Cookie", pair).GET().build());
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'self'",
        "frame-ancestors 'none'");
    assertThat(page.body()).contains("/ops/assets/uPlot.iife.min.js");
    assertThat(http.send(http.builder("/ops/api/live", null).header("Cookie", pair).GET().build()).status()).isEqualTo(200);

    Http.Response signedOut = http.send(http.builder("/ops/session", null).DELETE().build());
    assertThat(signedOut.status()).isEqualTo(204);
    assertThat(signedOut.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");

    // A user's token, or none, gets the sign-in page again with the status and why.
    Http.Response user = http.send(form("token=" + stack.app().token(1, "phone")));
    assertThat(user.status()).isEqualTo(403);
    assertThat(user.body()).contains("not an operator's").contains("<form");
    assertThat(http.send(form("token=")).status()).isEqualTo(401);
    assertThat(http.send(form("token=not.a.token")).body()).contains("the token is not valid");
  }

  @Test
  void theAssetsAreTheDashboardsOwnAndUplotOnly() {
    Http http = stack.app().http;
    for (String file : List.of("dashboard.js", "dashboard.css", "uPlot.iife.min.js", "uPlot.min.css")) {
      Http.Response asset = http.get("/ops/assets/" + file, null);
      assertThat(asset.status()).as(file).isEqualTo(200);
      assertThat(asset.body()).as(file).isNotBlank();
    }
    for (String file : List.of("index.html", "..%2F..%2Fops%2Findex.html", "logback.xml", "dashboard.js.map")) {
      assertThat(http.get("/ops/assets/" + file, null).status()).as(file).isEqualTo(404);
    }
  }

  @Test
  void parametersAreCheckedAndTheCaseLibraryPagesNewestFirst() {
    Http http = stack.app().http;
    String token = operator();
    for (String bad : List.of("/ops/api/delivery?days=0", "/ops/api/delivery?days=32", "/ops/api/delivery?days=-1",
        "/ops/api/delivery?days=x", "/ops/api/delivery/cases?cause=bogus", "/ops/api/delivery/cases?limit=0",
        "/ops/api/delivery/cases?limit=101", "/ops/api/delivery/cases?offset=10001", "/ops/api/delivery/cases?offset=1.5")) {
      Http.Response response = http.get(bad, token);
      assertThat(response.status()).as(bad).isEqualTo(400);
      assertThat(response.errorCode()).as(bad).isEqualTo("invalid_parameter");
    }
    JsonNode days = http.get("/ops/api/delivery?days=3", token).json();
    assertThat(days.path("days")).hasSize(3);

    stack.app().database.jdbi().useHandle(handle -> {
      for (int i = 1; i <= 5; i++) {
        handle.execute("insert into delivery_cases (msg_id, user_id, device_id, cause, conv_id, seq, create_time,"
            + " latency_ms, detail, reported_at) values (?, 2, 'phone', ?, 'd:1:2', ?, ?, ?, null, ?)",
            100 + i, i % 2 == 0 ? "slow_delivery" : "slow_send", i, 1_000L * i, 3_000L, 2_000L * i);
      }
    });
    JsonNode first = http.get("/ops/api/delivery/cases?limit=2", token).json();
    assertThat(first.path("cases").findValuesAsText("seq")).containsExactly("5", "4");
    assertThat(first.path("next").asInt()).isEqualTo(2);
    JsonNode last = http.get("/ops/api/delivery/cases?limit=2&offset=4", token).json();
    assertThat(last.path("cases").findValuesAsText("seq")).containsExactly("1");
    assertThat(last.path("next").isNull()).isTrue();
    JsonNode slowDelivery = http.get("/ops/api/delivery/cases?cause=slow_delivery", token).json();
    assertThat(slowDelivery.path("cases").findValuesAsText("seq")).containsExactly("4", "2");
  }

  @Test
  void theLiveFiguresSayTheMonitorHasNotLookedYet() {
    JsonNode live = stack.app().http.get("/ops/api/live", operator()).json();
    assertThat(live.path("monitorProblem").asText()).isEqualTo("not looked yet");
    assertThat(live.path("projector").isNull()).isTrue();
    assertThat(live.path("sends").path("ok").asLong()).isZero();
    assertThat(live.path("fetch").path("lanes").findValuesAsText("lane")).containsExactly("first-screen", "paging");
    assertThat(live.path("sendToSeqMs").path("bounds")).hasSize(Latencies.BUCKETS.length);
  }

  private static HttpRequest form(String body) {
    return stack.app().http.builder("/ops/session", null).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }
}
