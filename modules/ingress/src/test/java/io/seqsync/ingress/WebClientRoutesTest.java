package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.auth.Caller;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The web client's files come from the jar (the library's own source among them), nothing outside
 * its folders is served, and the development sign-in exists only where the app was given it.
 */
class WebClientRoutesTest {
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appOnRequest();

  @Test
  void servesThePageTheClientAndTheLibraryFromTheJar() throws Exception {
    Http http = stack.app(Map.of(), false).http;
    Http.Response page = http.get("/", null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
    assertThat(page.body()).contains("web/app.js");
    Http.Response library = http.get("/web/lib/index.js", null);
    assertThat(library.status()).isEqualTo(200);
    assertThat(library.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/javascript"));
    // One copy of the code: the bytes served are the npm package's source.
    assertThat(library.body()).isEqualTo(java.nio.file.Files.readString(
        java.nio.file.Path.of("..", "..", "clients", "js", "src", "index.js")));
    // The offline shell: the service worker may serve the whole page ("/"), the manifest is served as JSON.
    Http.Response worker = http.get("/web/sw.js", null);
    assertThat(worker.status()).isEqualTo(200);
    assertThat(worker.headers().firstValue("Service-Worker-Allowed")).hasValue("/");
    assertThat(library.headers().firstValue("Service-Worker-Allowed")).isEmpty();
    Http.Response manifest = http.get("/web/manifest.json", null);
    assertThat(manifest.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(manifest.json().get("start_url").asText()).isEqualTo("/");
    for (String path : new String[] {"/web/nothing.js", "/web/..%2Fpom.xml", "/web/lib/..%2F..%2Fpom.xml", "/web/app.exe",
        "/web/io/seqsync/ingress/IngressApp.class", "/web/.hidden.js"}) {
      Http.Response refused = http.get(path, null);
      assertThat(refused.status()).as(path).isEqualTo(404);
      assertThat(refused.errorCode()).as(path).isIn("not_found");
    }
  }

  @Test
  void withoutTheDevelopmentSignInItsRouteDoesNotExist() {
    Http http = stack.app(Map.of(), false).http;
    assertThat(http.get("/dev/sign-in", null).status()).isEqualTo(404);
    assertThat(http.post("/dev/sign-in", null, "{\"userId\":\"1\",\"deviceId\":\"web\"}").status()).isEqualTo(404);
  }

  @Test
  void theDevelopmentSignInGivesATokenTheApiTakes() {
    TestApp app = stack.app(Map.of(), true);
    assertThat(app.http.get("/dev/sign-in", null).status()).isEqualTo(200);
    Http.Response signedIn = app.http.post("/dev/sign-in", null, "{\"userId\":\"7\",\"deviceId\":\"web-1\"}");
    assertThat(signedIn.status()).isEqualTo(200);
    JsonNode body = signedIn.json();
    assertThat(body.get("userId").asText()).isEqualTo("7");
    assertThat(app.tokens.verify(body.get("token").asText())).isEqualTo(new Caller(7, "web-1"));
    assertThat(app.http.post("/dev/sign-in", null, "{\"userId\":\"0\",\"deviceId\":\"web\"}").errorCode()).isEqualTo("invalid_field");
    assertThat(app.http.post("/dev/sign-in", null, "{\"userId\":\"7\",\"deviceId\":\"a b\"}").errorCode()).isEqualTo("invalid_field");
    assertThat(app.http.post("/dev/sign-in", null, "{\"userId\":\"7\"}").errorCode()).isEqualTo("missing_field");
    assertThat(app.http.post("/dev/sign-in", null, "not json").status()).isEqualTo(400);
  }
}
