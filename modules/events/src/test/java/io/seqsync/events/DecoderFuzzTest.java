package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Whatever bytes arrive on a topic, decoding either yields a record or throws a
 * {@link SerializationException}: never another exception (which would kill a stream thread or a
 * projector), and never an allocation sized by a forged length prefix rather than by the input.
 */
class DecoderFuzzTest {
  /** Far more than decoding any input below needs; far less than a forged length would claim. */
  private static final long MAX_ALLOCATION = 16L << 20;
  private static final int HEADER = 10;

  private final List<AvroSerde<?>> serdes = List.of(EventSerdes.command(), EventSerdes.event(), EventSerdes.duplicate(),
      EventSerdes.announcement());

  @Property(tries = 300)
  void arbitraryBytesDecodeOrAreRefused(@ForAll @Size(max = 200) byte[] bytes) {
    serdes.forEach(serde -> decodeOrRefuse(serde, bytes));
  }

  @Property(tries = 300)
  void arbitraryBytesBehindAKnownHeaderDecodeOrAreRefused(@ForAll @Size(max = 200) byte[] body) {
    decodeOrRefuse(EventSerdes.command(), ByteMutation.concat(header(EventSerdes.command(), sampleCommand()), body));
  }

  @Property(tries = 400)
  void mutatedCommandsDecodeOrAreRefused(@ForAll("commands") byte[] encoded, @ForAll("mutations") List<ByteMutation> mutations) {
    decodeOrRefuse(EventSerdes.command(), ByteMutation.applyAll(encoded, mutations));
  }

  @Property(tries = 400)
  void mutatedEventsDecodeOrAreRefused(@ForAll("events") byte[] encoded, @ForAll("mutations") List<ByteMutation> mutations) {
    decodeOrRefuse(EventSerdes.event(), ByteMutation.applyAll(encoded, mutations));
  }

  @Property(tries = 100)
  void mutatedDuplicatesDecodeOrAreRefused(@ForAll("duplicates") byte[] encoded,
      @ForAll("mutations") List<ByteMutation> mutations) {
    decodeOrRefuse(EventSerdes.duplicate(), ByteMutation.applyAll(encoded, mutations));
  }

  @Property(tries = 100)
  void mutatedAnnouncementsDecodeOrAreRefused(@ForAll("announcements") byte[] encoded,
      @ForAll("mutations") List<ByteMutation> mutations) {
    decodeOrRefuse(EventSerdes.announcement(), ByteMutation.applyAll(encoded, mutations));
  }

  @Example
  void aForgedStringLengthAllocatesNothingLikeIt() {
    for (long length : new long[] {Integer.MAX_VALUE - 8, Integer.MAX_VALUE, 1L << 40, -1, Long.MIN_VALUE}) {
      byte[] forged = ByteMutation.concat(header(EventSerdes.command(), sampleCommand()), ByteMutation.zigZag(length));
      assertRefusedCheaply(forged);
    }
  }

  @Example
  void aForgedArrayCountAllocatesNothingLikeIt() {
    Command membership = new Commands(1, "phone").membership("g:team", List.of(7L), List.of(), null);
    byte[] valid = EventSerdes.command().encode(membership);
    // The add array's count sits right after the union index (6th branch, zig-zag 10) of the payload.
    int countAt = indexOf(valid, (byte) 10) + 1;
    for (long count : new long[] {Integer.MAX_VALUE - 8, 1L << 40, -(1L << 40)}) {
      byte[] forged = ByteMutation.concat(Arrays.copyOf(valid, countAt), ByteMutation.zigZag(count), new byte[] {14, 0, 0, 0});
      assertRefusedCheaply(forged);
    }
    assertThat(((ChangeMembership) EventSerdes.command().decode(valid).getPayload()).getAdd()).containsExactly(7L);
  }

  @Provide
  Arbitrary<byte[]> commands() {
    return SampleRecords.commands().map(EventSerdes.command()::encode);
  }

  @Provide
  Arbitrary<byte[]> events() {
    return SampleRecords.events().map(EventSerdes.event()::encode);
  }

  @Provide
  Arbitrary<byte[]> duplicates() {
    return SampleRecords.duplicates().map(EventSerdes.duplicate()::encode);
  }

  @Provide
  Arbitrary<byte[]> announcements() {
    return SampleRecords.announcements().map(EventSerdes.announcement()::encode);
  }

  @Provide
  Arbitrary<List<ByteMutation>> mutations() {
    return ByteMutation.arbitrary().list().ofMinSize(1).ofMaxSize(4);
  }

  private static void decodeOrRefuse(AvroSerde<?> serde, byte[] bytes) {
    long before = allocatedBytes();
    try {
      assertThat(serde.decode(bytes)).isNotNull();
    } catch (SerializationException refused) {
      assertThat(refused).hasMessageStartingWith("undecodable ");
    }
    assertThat(allocatedBytes() - before).as("bytes allocated to decode %d bytes", bytes.length)
        .isLessThan(MAX_ALLOCATION);
  }

  private static void assertRefusedCheaply(byte[] forged) {
    long before = allocatedBytes();
    assertThatThrownBy(() -> EventSerdes.command().decode(forged)).isInstanceOf(SerializationException.class);
    assertThat(allocatedBytes() - before).isLessThan(MAX_ALLOCATION);
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  private static Command sampleCommand() {
    return new Commands(1, "phone").sendText("d:1:2", "c-1", "hi");
  }

  private static <T extends org.apache.avro.specific.SpecificRecord> byte[] header(AvroSerde<T> serde, T record) {
    return Arrays.copyOf(serde.encode(record), HEADER);
  }

  private static int indexOf(byte[] bytes, byte wanted) {
    // The last occurrence: the union index follows every string of the command.
    for (int i = bytes.length - 1; i >= HEADER; i--) {
      if (bytes[i] == wanted) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }
}
