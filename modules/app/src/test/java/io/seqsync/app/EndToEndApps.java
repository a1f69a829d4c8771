package io.seqsync.app;

import io.seqsync.localstack.TemporaryDirectory;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The app of an {@link EndToEndTest} class. Classes whose assertions hold whatever else the app has
 * stored share one app for the test JVM, started before the first of them and closed when the run
 * ends: each of them uses user ids and conversations no other class uses (so one class's data
 * cannot change another's answers). A class marked {@link OwnApp} gets an app of its own, closed
 * after its last test: it asserts on figures that count everything the app holds (the period's
 * sends, the archive job's moves).
 *
 * <p>Starting the whole stack (KRaft broker, PostgreSQL, Redis, the sequencer joining its group)
 * is most of such a class's time; sharing it takes one start instead of one per class.
 */
final class EndToEndApps implements BeforeAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EndToEndApps.class);

  /** The class gets an app of its own instead of the shared one. */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @interface OwnApp {}

  @Override
  public void beforeAll(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    boolean own = testClass.isAnnotationPresent(OwnApp.class);
    // The class's store is closed after the class, the root's when the whole run ends. A store's
    // lookups see its parents' values, so the two are kept under different keys.
    ExtensionContext.Store store = (own ? context : context.getRoot()).getStore(NAMESPACE);
    Object key = own ? testClass : Started.class;
    EndToEndTest.app = store.getOrComputeIfAbsent(key, ignored -> new Started(), Started.class).app;
  }

  /** An app on the tests' settings in a directory of its own, both removed on close. */
  private static final class Started implements ExtensionContext.Store.CloseableResource {
    private final TemporaryDirectory dir = TemporaryDirectory.create("seqsync-e2e-");
    private final SeqsyncApp app;

    Started() {
      try {
        app = EndToEnd.start(dir.path());
      } catch (RuntimeException | Error e) {
        dir.close();
        throw e;
      }
    }

    @Override
    public void close() {
      try {
        app.close();
      } finally {
        dir.close();
      }
    }
  }
}
