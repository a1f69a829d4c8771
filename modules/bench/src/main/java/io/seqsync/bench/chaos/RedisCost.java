package io.seqsync.bench.chaos;

import redis.clients.jedis.Jedis;

/**
 * Redis's own counters, read before and after a steady spell: the CPU it spent (INFO cpu, user and
 * system seconds) and the commands it ran (INFO stats, total_commands_processed), for a per-message
 * cost that does not depend on the client's view.
 */
record RedisCost(double cpuSeconds, long commands) {
  /** The sum over {@code nodes}, HOST:PORT separated by commas (every master of a Redis Cluster). */
  static RedisCost read(String nodes) {
    RedisCost sum = new RedisCost(0, 0);
    for (String node : nodes.split(",")) {
      String[] parts = node.trim().split(":");
      try (Jedis jedis = new Jedis(parts[0], Integer.parseInt(parts[1]))) {
        sum = new RedisCost(sum.cpuSeconds + field(jedis.info("cpu"), "used_cpu_user") + field(jedis.info("cpu"), "used_cpu_sys"),
            sum.commands + (long) field(jedis.info("stats"), "total_commands_processed"));
      }
    }
    return sum;
  }

  /** Redis's CPU and commands per message over a steady spell, for a result row. */
  java.util.Map<String, Object> perMessage(RedisCost before, long messages, double seconds) {
    double cpu = cpuSeconds - before.cpuSeconds;
    long ran = commands - before.commands;
    return io.seqsync.bench.Result.row("phase", "Redis cost while steady", "seconds", seconds, "messages", messages,
        "redisCpuS", cpu, "cpuMicrosPerMessage", messages == 0 ? 0 : cpu * 1e6 / messages,
        "commandsPerMessage", messages == 0 ? 0 : (double) ran / messages);
  }

  private static double field(String info, String name) {
    return info.lines().filter(line -> line.startsWith(name + ":")).mapToDouble(line -> Double.parseDouble(
        line.substring(name.length() + 1).trim())).findFirst().orElseThrow(() -> new IllegalStateException("Redis INFO has no " + name));
  }
}
