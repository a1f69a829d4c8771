package io.seqsync.bench.peer;

import io.seqsync.bench.Cpu;

import io.seqsync.bench.BenchSupport;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jivesoftware.smack.ConnectionConfiguration;
import org.jivesoftware.smack.ReconnectionManager;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.StanzaBuilder;
import org.jivesoftware.smack.roster.Roster;
import org.jivesoftware.smack.sm.StreamManagementException;
import org.jivesoftware.smack.sm.predicates.Predicate;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;

/**
 * ejabberd (Debian's package) as scripts/bench-peer configured it, started in the foreground by
 * its own {@code ejabberdctl} (the script's wrapper names the configuration, spool and logs), its
 * users registered with {@code ejabberdctl import_piefxis}. The client library is Smack: every
 * sender and receiver is an XMPP session over TCP with stream management (XEP-0198) and resumption
 * on, reconnected by Smack's ReconnectionManager after a drop.
 */
final class EjabberdPeer implements Peer {
  static final String DOMAIN = "bench.local";
  private static final String PASSWORD = "bench";
  private static final AtomicLong ARRIVALS = new AtomicLong();

  private final PeerOptions options;
  private final Path dir;
  private final XMPPTCPConnection[] senders;
  private final EntityBareJid[] receivers = new EntityBareJid[Receiver.values().length];
  private final PeerDatabase database;
  // Sent, neither acknowledged nor dropped yet: by stanza id.
  private final Map<String, Consumer<Boolean>> unanswered = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> senderErrors = new ConcurrentHashMap<>();
  private volatile Process process;
  private boolean registered;

  EjabberdPeer(PeerOptions options) throws IOException {
    this.options = options;
    this.dir = options.dir().resolve("ejabberd");
    Files.createDirectories(dir);
    this.senders = new XMPPTCPConnection[options.conversations()];
    this.database = new PeerDatabase(options.ejabberdDatabase());
    for (Receiver receiver : Receiver.values()) {
      receivers[receiver.ordinal()] = JidCreate.entityBareFrom(user(receiver) + "@" + DOMAIN);
    }
    // Its PostgreSQL backends' command lines name the database.
  }

  @Override
  public String name() {
    return "ejabberd";
  }

  private static String user(Receiver receiver) {
    return receiver.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public void start() throws Exception {
    process = new ProcessBuilder(options.ejabberdctl().toString(), "foreground").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("foreground.log").toFile())).start();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (ctl("status") != 0) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("ejabberd did not start; see " + dir);
      }
      BenchSupport.sleep(250);
    }
    if (!registered) {
      register();
      connectSenders();
      registered = true;
    }
  }

  /** Every user in one XEP-0227 file, imported by one ejabberdctl call (one call per user takes a VM start each). */
  private void register() throws Exception {
    StringBuilder xml = new StringBuilder("<?xml version='1.0' encoding='UTF-8'?>\n<server-data xmlns='urn:xmpp:pie:0'>\n"
        + "<host jid='" + DOMAIN + "'>\n");
    for (Receiver receiver : Receiver.values()) {
      xml.append("<user name='").append(user(receiver)).append("' password='" + PASSWORD + "'/>\n");
    }
    for (int k = 0; k < senders.length; k++) {
      xml.append("<user name='a").append(k).append("' password='" + PASSWORD + "'/>\n");
    }
    Path users = dir.resolve("users.xml");
    Files.writeString(users, xml.append("</host>\n</server-data>\n"));
    if (ctl("import_piefxis", users.toString()) != 0) {
      throw new IllegalStateException("ejabberdctl import_piefxis failed; see " + dir.resolve("ctl.log"));
    }
  }

  private int ctl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(options.ejabberdctl().toString()));
    command.addAll(List.of(args));
    Process ctl = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("ctl.log").toFile())).start();
    if (!ctl.waitFor(2, TimeUnit.MINUTES)) {
      ctl.destroyForcibly();
      return -1;
    }
    return ctl.exitValue();
  }

  private void connectSenders() throws Exception {
    ExecutorService connecting = Executors.newFixedThreadPool(16, BenchSupport.daemonThreads("bench-xmpp-connect-"));
    try {
      List<Future<?>> logins = new ArrayList<>();
      for (int k = 0; k < senders.length; k++) {
        int sender = k;
        logins.add(connecting.submit(() -> {
          XMPPTCPConnection connection = connect("a" + sender, false);
          // An ack asked for with every message, as Smack's own predicate for it does.
          connection.addRequestAckPredicate(Predicate.forMessagesOrAfter5Stanzas());
          connection.addStanzaDroppedListener(dropped -> {
            Consumer<Boolean> callback = unanswered.get(dropped.getStanzaId());
            if (callback != null) {
              callback.accept(false);
            }
          });
          // What the server refused, by its error condition.
          connection.addAsyncStanzaListener(error -> senderErrors.computeIfAbsent(
              String.valueOf(((Message) error).getError()), e -> new AtomicInteger()).incrementAndGet(),
              stanza -> stanza instanceof Message message && message.getType() == Message.Type.error);
          senders[sender] = connection;
          return null;
        }));
      }
      for (Future<?> login : logins) {
        login.get(2, TimeUnit.MINUTES);
      }
    } finally {
      connecting.shutdownNow();
    }
  }

  /** A logged-in session with stream management, reconnected by Smack after a drop. */
  private XMPPTCPConnection connect(String user, boolean presence) throws Exception {
    XMPPTCPConnection connection = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
        .setXmppDomain(DOMAIN).setHostAddress(InetAddress.getLoopbackAddress()).setPort(options.xmppPort())
        .setUsernameAndPassword(user, PASSWORD).setResource("bench")
        .setSecurityMode(ConnectionConfiguration.SecurityMode.disabled)
        .setSendPresence(presence).build());
    connection.setUseStreamManagement(true);
    connection.setUseStreamManagementResumption(true);
    Roster.getInstanceFor(connection).setRosterLoadedAtLogin(false);
    // Smack's own policy (a random, growing delay): a fixed one brought all 1,000 sessions back at
    // the same moments, and a restarted ejabberd on a busy machine timed out most of them, over and over.
    ReconnectionManager.getInstanceFor(connection).enableAutomaticReconnection();
    connection.setReplyTimeout(30_000);
    connection.connect().login();
    return connection;
  }

  @Override
  public void awaitSenders(long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    for (XMPPTCPConnection sender : senders) {
      while (!(sender.isAuthenticated() && sender.isSmEnabled()) && System.nanoTime() < deadline) {
        BenchSupport.sleep(100);
      }
    }
  }

  @Override
  public String clientState() {
    int authenticated = 0;
    int managed = 0;
    for (XMPPTCPConnection sender : senders) {
      authenticated += sender != null && sender.isAuthenticated() ? 1 : 0;
      managed += sender != null && sender.isSmEnabled() ? 1 : 0;
    }
    return String.format("senders logged in %d, with stream management %d; %,d sent messages unacknowledged",
        authenticated, managed, unanswered.size());
  }

  @Override
  public void kill() {
    process.descendants().filter(p -> p.info().command().orElse("").endsWith("beam.smp"))
        .forEach(ProcessHandle::destroyForcibly);
    Peer.awaitExit(process);
  }

  @Override
  public double cpuSeconds() {
    Process current = process;
    return current == null ? 0 : Cpu.treeNanos(current.pid(), " " + options.ejabberdDatabase() + " ") / 1e9;
  }

  /**
   * Taken once the server acknowledged the stanza (XEP-0198 {@code <a/>}, which ejabberd sends
   * after it has handled it); not taken when it could not be sent, or when Smack dropped it
   * unacknowledged because a stream it was sent on could not be resumed.
   */
  @Override
  public void send(Receiver receiver, int k, String id, String text, Consumer<Boolean> done) {
    Message message = StanzaBuilder.buildMessage(id).to(receivers[receiver.ordinal()]).ofType(Message.Type.chat)
        .setBody(text).build();
    XMPPTCPConnection sender = senders[k];
    AtomicBoolean answered = new AtomicBoolean();
    Consumer<Boolean> once = taken -> {
      if (answered.compareAndSet(false, true)) {
        unanswered.remove(id);
        done.accept(taken);
      }
    };
    unanswered.put(id, once);
    try {
      sender.addStanzaIdAcknowledgedListener(id, acked -> once.accept(true));
      sender.sendStanza(message);
    } catch (StreamManagementException.StreamManagementNotEnabledException | SmackException.NotConnectedException e) {
      sender.removeStanzaIdAcknowledgedListener(id);
      once.accept(false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      once.accept(false);
    }
  }

  @Override
  public AutoCloseable online(Receiver receiver) throws Exception {
    XMPPTCPConnection connection = connect(user(receiver), true);
    listen(connection);
    return connection::disconnect;
  }

  /** Records every message the session gets: its archive id (stanza-id) names the stored copy. */
  private static void listen(XMPPTCPConnection connection) {
    connection.addSyncStanzaListener(stanza -> {
      long now = System.nanoTime();
      Message message = (Message) stanza;
      ExtensionElement stored = message.getExtensionElement("stanza-id", "urn:xmpp:sid:0");
      String copy = stored == null ? "arrival " + ARRIVALS.get()
          : stored instanceof StandardExtensionElement standard ? standard.getAttributeValue("id") : stored.toXML().toString();
      Deliveries.arrived(message.getStanzaId(), copy, ARRIVALS.incrementAndGet(), now);
    }, StanzaTypeFilter.MESSAGE);
  }

  @Override
  public long awaitStored(Receiver receiver, long expected, long timeoutMillis) throws Exception {
    // An offline receiver's messages wait in the spool (mod_offline); every message is in the archive (mod_mam).
    String sql = receiver == Receiver.CATCHUP ? "select count(*) from spool where username = 'catchup'"
        : "select count(*) from archive where username = '" + user(receiver) + "'";
    return database.awaitCount(sql, expected, timeoutMillis);
  }

  @Override
  public CatchUp catchUp(Receiver receiver, Deliveries deliveries) throws Exception {
    long start = System.nanoTime();
    XMPPTCPConnection connection = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
        .setXmppDomain(DOMAIN).setHostAddress(InetAddress.getLoopbackAddress()).setPort(options.xmppPort())
        .setUsernameAndPassword(user(receiver), PASSWORD).setResource("bench")
        .setSecurityMode(ConnectionConfiguration.SecurityMode.disabled).build());
    connection.setUseStreamManagement(true);
    Roster.getInstanceFor(connection).setRosterLoadedAtLogin(false);
    listen(connection);
    // The initial presence sent after login makes ejabberd deliver the offline messages (mod_offline).
    connection.connect().login();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      while (deliveries.receivedCount(0, deliveries.total) < deliveries.total && System.nanoTime() < deadline) {
        BenchSupport.sleep(20);
      }
      long end = deliveries.lastArrival();
      return new CatchUp((end - start) / 1e9);
    } finally {
      // Everything acknowledged before leaving: else ejabberd bounces what its stream-management
      // queue still holds to the senders ("User session terminated"), work that would run in the next phase.
      try {
        connection.sendSmAcknowledgement();
      } catch (StreamManagementException.StreamManagementNotEnabledException | SmackException.NotConnectedException e) {
        // nothing to acknowledge on
      }
      connection.disconnect();
    }
  }

  @Override
  public String storageCounts() throws SQLException {
    return String.format("archive %,d rows (LIVE %,d, CATCHUP %,d, CRASH %,d; the senders' copies %,d), spool %,d rows",
        count("select count(*) from archive"), count("select count(*) from archive where username = 'live'"),
        count("select count(*) from archive where username = 'catchup'"),
        count("select count(*) from archive where username = 'crash'"),
        count("select count(*) from archive where username like 'a%'"), count("select count(*) from spool"))
        + (senderErrors.isEmpty() ? "" : "; errors returned to the senders: " + senderErrors);
  }

  private long count(String sql) throws SQLException {
    return database.count(sql);
  }

  @Override
  public void close() throws Exception {
    for (XMPPTCPConnection sender : senders) {
      if (sender != null) {
        ReconnectionManager.getInstanceFor(sender).disableAutomaticReconnection();
        sender.disconnect();
      }
    }
    if (process != null && process.isAlive()) {
      ctl("stop");
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        kill();
      }
    }
  }
}
