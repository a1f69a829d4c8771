package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** openapi/seqsync.yaml held to the running ingress: it describes every route served, and no other. */
class OpenApiContractTest {
  private static final Path OPENAPI = Path.of("..", "..", "openapi", "seqsync.yaml"); // from the module's directory
  private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerClass(Map.of());

  @Test
  void describesExactlyTheRoutesServed() throws IOException {
    assertThat(new TreeSet<>(stack.app().app.routes())).isEqualTo(described().keySet());
  }

  @Test
  void everyDescribedRouteAnswersARequestWithoutATokenAsItSays() throws IOException {
    for (Map.Entry<String, Set<Integer>> described : described().entrySet()) {
      String route = described.getKey();
      String method = route.substring(0, route.indexOf(' '));
      String path = route.substring(method.length() + 1).replace("{convId}", "d:1:2").replace("{seq}", "1").replace("{userId}", "2").replace("{asUser}", "2")
          .replace("{emoji}", "%F0%9F%91%8D")
          .replace("{device}", "phone").replace("{pusherId}", "1")
          .replace("{file}", route.contains("/ops/assets/") ? "dashboard.js" : "index.js");
      Http.Response response = stack.app().http.send(stack.app().http.builder(path, null)
          .method(method, HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build());
      assertThat(described.getValue()).as(route + ": the statuses described").contains(response.status());
      if (path.startsWith("/v1/")) {
        assertThat(response.status()).as(route).isEqualTo(401);
        assertThat(response.errorCode()).as(route).isEqualTo("missing_token");
      }
    }
  }

  // "METHOD path" of every operation under the file's paths, with the statuses it describes.
  private static Map<String, Set<Integer>> described() throws IOException {
    assertThat(OPENAPI).as("the OpenAPI file, from " + Path.of("").toAbsolutePath()).exists();
    JsonNode paths = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(OPENAPI)).get("paths");
    Map<String, Set<Integer>> routes = new TreeMap<>();
    paths.fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
      if (METHODS.contains(operation.getKey())) {
        Set<Integer> statuses = new TreeSet<>();
        operation.getValue().path("responses").fieldNames().forEachRemaining(status -> statuses.add(Integer.parseInt(status)));
        routes.put(operation.getKey().toUpperCase() + " " + path.getKey(), statuses);
      }
    }));
    return routes;
  }
}
