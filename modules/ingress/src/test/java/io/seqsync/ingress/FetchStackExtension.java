package io.seqsync.ingress;

import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.localstack.TemporaryDirectory;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link FetchStack} for a test class (register it in a static field with
 * {@code @RegisterExtension}), in a temporary directory of its own, and the ingress the tests
 * talk to: a fresh one (a fresh database) for every test, one for the whole class, or one a test
 * starts with settings of its own. Extension callbacks run before the class's {@code @BeforeAll}
 * and {@code @BeforeEach} methods, so those find the app started and only write their rows.
 */
final class FetchStackExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private enum Apps { PER_TEST, PER_CLASS, ON_REQUEST }

  private final Apps apps;
  private final Map<String, String> fetchSettings;
  private TemporaryDirectory dir;
  private FetchStack stack;
  private TestApp classApp;
  private TestApp testApp;

  private FetchStackExtension(Apps apps, Map<String, String> fetchSettings) {
    this.apps = apps;
    this.fetchSettings = fetchSettings;
  }

  /** A fresh app with {@code fetchSettings} ({@code fetch.*} properties) for every test. */
  static FetchStackExtension appPerTest(Map<String, String> fetchSettings) {
    return new FetchStackExtension(Apps.PER_TEST, fetchSettings);
  }

  /** One app with {@code fetchSettings} for all the tests of the class: they share its rows. */
  static FetchStackExtension appPerClass(Map<String, String> fetchSettings) {
    return new FetchStackExtension(Apps.PER_CLASS, fetchSettings);
  }

  /** No app until a test starts one with {@link #app(Map)}: for tests that each need other settings. */
  static FetchStackExtension appOnRequest() {
    return new FetchStackExtension(Apps.ON_REQUEST, Map.of());
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    dir = TemporaryDirectory.create("fetch-stack-");
    stack = FetchStack.start(dir.path());
    if (apps == Apps.PER_CLASS) {
      classApp = stack.app(fetchSettings);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    // try-with-resources closes in reverse order and skips what never started: the class's app
    // (its pool is on the stack's PostgreSQL), the stack, then the directory PostgreSQL wrote in.
    try (TemporaryDirectory closingDir = dir; FetchStack closingStack = stack; TestApp closingApp = classApp) {
      dir = null;
      stack = null;
      classApp = null;
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (apps == Apps.PER_TEST) {
      testApp = stack.app(fetchSettings);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (testApp != null) {
      testApp.close();
      testApp = null;
    }
  }

  /** The app of this test, or of the class. */
  TestApp app() {
    TestApp app = apps == Apps.PER_CLASS ? classApp : testApp;
    if (app == null) {
      throw new IllegalStateException("no app is running: a test of an appOnRequest() extension starts one with app(settings)");
    }
    return app;
  }

  /** Starts this test's app with {@code fetchSettings}; it is closed after the test. */
  TestApp app(Map<String, String> fetchSettings) {
    return app(fetchSettings, true);
  }

  /** Starts this test's app with {@code fetchSettings}, with or without the development sign-in. */
  TestApp app(Map<String, String> fetchSettings, boolean devSignIn) {
    if (apps != Apps.ON_REQUEST || testApp != null) {
      throw new IllegalStateException("one app a test: only tests of an appOnRequest() extension start their own");
    }
    testApp = stack.app(fetchSettings, devSignIn);
    return testApp;
  }

  /** The publisher the apps send commands to: it never reaches a broker. */
  CommandPublisher publisher() {
    return stack.publisher();
  }
}
