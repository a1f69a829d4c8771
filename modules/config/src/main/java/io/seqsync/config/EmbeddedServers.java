package io.seqsync.config;

/**
 * Starts embedded servers for the ones a configuration leaves out ({@link Endpoints#unconfigured}):
 * a service ({@link java.util.ServiceLoader}) that the development build has (the localstack
 * module's) and a production build leaves out. Found by {@link Servers#start}.
 */
public interface EmbeddedServers {
  /** Embedded servers started, and where every server (embedded or configured) answers. */
  interface Running extends AutoCloseable {
    Endpoints endpoints();

    /**
     * Starts the embedded object store, if it is one and not started yet, and returns once it
     * serves; its address is in {@link #endpoints} from the start. Most runs (tests, tools, an app
     * nobody attaches a file to) never call it: each start of it costs seconds of CPU.
     */
    void startObjectStore();

    /** Stops the embedded servers; the configured ones are not theirs to stop. */
    @Override
    void close();
  }

  /** Starts an embedded server for each of {@code config}'s {@link Endpoints#unconfigured} ones; returns when they serve. */
  Running start(SeqsyncConfig config);
}
