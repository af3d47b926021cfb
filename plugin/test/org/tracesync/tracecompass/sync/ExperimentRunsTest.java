// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ExperimentRunsTest {
  @Test
  void aSecondClaimOfTheSameExperimentIsRefusedUntilTheFirstIsReleased() {
    ExperimentRuns runs = new ExperimentRuns();
    assertTrue(runs.claim("/Tracing/Experiments/scp"));
    assertFalse(runs.claim("/Tracing/Experiments/scp"), "a second click while the first job runs");
    assertTrue(runs.claim("/Tracing/Experiments/other"), "another experiment is not blocked");
    runs.release("/Tracing/Experiments/scp");
    assertFalse(runs.isRunning("/Tracing/Experiments/scp"));
    assertTrue(runs.claim("/Tracing/Experiments/scp"), "claimable again once released");
    runs.release("/never/claimed");
  }

  /** Two clicks in quick succession from different threads: exactly one wins. */
  @Test
  void concurrentClaimsHaveOneWinner() throws Exception {
    for (int round = 0; round < 200; round++) {
      ExperimentRuns runs = new ExperimentRuns();
      CountDownLatch start = new CountDownLatch(1);
      AtomicInteger winners = new AtomicInteger();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Thread thread = new Thread(() -> {
          try {
            start.await();
          } catch (InterruptedException e) {
            return;
          }
          if (runs.claim("/e")) winners.incrementAndGet();
        });
        thread.start();
        threads.add(thread);
      }
      start.countDown();
      for (Thread thread : threads) thread.join();
      assertEquals(1, winners.get(), "round " + round);
    }
  }
}
