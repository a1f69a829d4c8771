package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandLineOptionsTest {
  private static final Set<String> KNOWN = Set.of("--user", "--since");

  @Test
  void takesBothSpellings() {
    assertThat(CommandLineOptions.parse(new String[] {"--user", "7", "--since=24h"}, KNOWN))
        .isEqualTo(Map.of("--user", "7", "--since", "24h"));
    assertThat(CommandLineOptions.parse(new String[] {}, KNOWN)).isEmpty();
  }

  @Test
  void saysWhatIsWrong() {
    assertThatThrownBy(() -> CommandLineOptions.parse(new String[] {"--user"}, KNOWN)).hasMessage("--user needs a value");
    assertThatThrownBy(() -> CommandLineOptions.parse(new String[] {"--colour", "red"}, KNOWN))
        .hasMessage("unknown option --colour");
    assertThatThrownBy(() -> CommandLineOptions.parse(new String[] {"--colour"}, KNOWN))
        .hasMessage("unknown option --colour");
    assertThatThrownBy(() -> CommandLineOptions.parse(new String[] {"--user=1", "--user", "2"}, KNOWN))
        .hasMessage("--user given twice");
  }
}
