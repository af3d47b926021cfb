// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.tracesync.proto.Decimal;
import org.tracesync.proto.Line;
import org.tracesync.proto.Link;
import org.tracesync.proto.LinkDetail;
import org.tracesync.proto.Point;
import org.tracesync.proto.Quality;

/**
 * Builds a realistic link the way the engine would report it, from first principles: messages exchanged between two
 * clocks related by b = alpha * a + beta (timestamps near 1.7e18 ns, a few ppm of drift, tens of microseconds of
 * latency), then Lmin, Lmax and the hull vertices found by brute force in exact integer arithmetic.
 */
public final class LinkFixture {
  public static final long EPOCH_NS = 1_700_000_000_000_000_000L;

  /** The messages of one link: lower points (a -> b) and upper points (b -> a), as (x on a, y on b). */
  public record Messages(List<Point> lower, List<Point> upper) {}

  /** A line through two points with exact rational slope; evaluated exactly. */
  public record ExactLine(Point p, Point q) {
    BigInteger dx() {
      return BigInteger.valueOf(q.getX()).subtract(BigInteger.valueOf(p.getX()));
    }

    BigInteger dy() {
      return BigInteger.valueOf(q.getY()).subtract(BigInteger.valueOf(p.getY()));
    }

    /** Sign of (point - line) in y: +1 above, 0 on, -1 below (dx > 0). */
    int side(Point r) {
      BigInteger lhs = BigInteger.valueOf(r.getY() - p.getY()).multiply(dx());
      BigInteger rhs = dy().multiply(BigInteger.valueOf(r.getX() - p.getX()));
      return lhs.compareTo(rhs);
    }

    public BigDecimal slope() {
      return new BigDecimal(dy()).divide(new BigDecimal(dx()), MathContext.DECIMAL128);
    }

    public BigDecimal intercept() {
      // y = p.y + slope * (x - p.x)  =>  intercept = p.y - slope * p.x, exact rational rounded once.
      BigDecimal numerator = new BigDecimal(BigInteger.valueOf(p.getY()).multiply(dx())
          .subtract(dy().multiply(BigInteger.valueOf(p.getX()))));
      return numerator.divide(new BigDecimal(dx()), MathContext.DECIMAL128);
    }
  }

  private LinkFixture() {}

  /** {@code count} messages each way over {@code spanNs}, latency 40..90 us, clock b = drift * a + offset. */
  public static Messages exchange(long seed, int count, long spanNs, BigDecimal drift, long offsetNs) {
    Random random = new Random(seed);
    List<Point> lower = new ArrayList<>();
    List<Point> upper = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long sendA = EPOCH_NS + spanNs * i / count + random.nextInt(1_000_000);
      lower.add(point(sendA, clockB(sendA + latency(random), drift, offsetNs)));
      long receiveA = EPOCH_NS + spanNs * i / count + 500_000 + random.nextInt(1_000_000);
      upper.add(point(receiveA, clockB(receiveA - latency(random), drift, offsetNs)));
    }
    return new Messages(lower, upper);
  }

  /** The link the engine would report for these messages between domains a and b (a sorting first). */
  public static Link link(String a, String b, Messages messages, boolean inTree) {
    ExactLine lmax = steepestFeasible(messages, true);
    ExactLine lmin = steepestFeasible(messages, false);
    BigDecimal alpha = lmin.slope().add(lmax.slope()).divide(BigDecimal.valueOf(2), MathContext.DECIMAL128);
    BigDecimal beta = lmin.intercept().add(lmax.intercept()).divide(BigDecimal.valueOf(2), MathContext.DECIMAL128);
    List<Point> lowerHull = chain(messages.lower(), true);
    List<Point> upperHull = chain(messages.upper(), false);
    long first = Math.min(messages.lower().get(0).getX(), messages.upper().get(0).getX());
    long last = Math.max(messages.lower().get(messages.lower().size() - 1).getX(),
        messages.upper().get(messages.upper().size() - 1).getX());
    return Link.newBuilder().setA(a).setB(b).setQuality(Quality.ACCURATE).setAlpha(decimal(alpha))
        .setBeta(decimal(beta)).setAccuracy(decimal(lmax.slope().subtract(lmin.slope())))
        .setMessages(messages.lower().size() + messages.upper().size()).setAccurateMessages(lowerHull.size())
        .setLowerHull(lowerHull.size()).setUpperHull(upperHull.size()).setInTree(inTree).setUncertaintyNs(1234.0)
        .setSpanFirstNs(first).setSpanLastNs(last)
        .setDetail(LinkDetail.newBuilder()
            .setLmin(Line.newBuilder().setSlope(decimal(lmin.slope())).setIntercept(decimal(lmin.intercept())))
            .setLmax(Line.newBuilder().setSlope(decimal(lmax.slope())).setIntercept(decimal(lmax.intercept())))
            .addAllLowerHullPoints(lowerHull).addAllUpperHullPoints(upperHull).build().toByteString())
        .setLowerMessages(messages.lower().size()).setUpperMessages(messages.upper().size()).build();
  }

  public static Decimal decimal(BigDecimal value) {
    BigDecimal rounded = value.round(MathContext.DECIMAL128);
    return Decimal.newBuilder().setExact(rounded.toPlainString()).setApprox(rounded.doubleValue()).build();
  }

  public static Point point(long x, long y) {
    return Point.newBuilder().setX(x).setY(y).build();
  }

  /** True when the line passes on or below every lower point and on or above every upper point. */
  public static boolean feasible(ExactLine line, Messages messages) {
    return messages.lower().stream().allMatch(r -> line.side(r) >= 0)
        && messages.upper().stream().allMatch(r -> line.side(r) <= 0);
  }

  /**
   * Brute force over all pairs: the feasible line of maximal slope goes through an upper point on the left and a
   * lower point on the right; the one of minimal slope through a lower point on the left and an upper on the right.
   */
  static ExactLine steepestFeasible(Messages messages, boolean maximal) {
    ExactLine best = null;
    for (Point left : maximal ? messages.upper() : messages.lower()) {
      for (Point right : maximal ? messages.lower() : messages.upper()) {
        if (right.getX() <= left.getX()) continue;
        ExactLine line = new ExactLine(left, right);
        if (!feasible(line, messages)) continue;
        if (best == null || (maximal ? compareSlopes(line, best) > 0 : compareSlopes(line, best) < 0)) best = line;
      }
    }
    if (best == null) throw new IllegalStateException("no feasible line: the fixture's messages contradict");
    return best;
  }

  private static int compareSlopes(ExactLine l1, ExactLine l2) {
    return l1.dy().multiply(l2.dx()).compareTo(l2.dy().multiply(l1.dx()));
  }

  /** The convex chain facing the lines: the lower chain of the lower points, the upper chain of the upper ones. */
  static List<Point> chain(List<Point> points, boolean lowerChain) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingLong(Point::getX));
    List<Point> hull = new ArrayList<>();
    for (Point p : sorted) {
      while (hull.size() >= 2) {
        Point o = hull.get(hull.size() - 2);
        Point a = hull.get(hull.size() - 1);
        BigInteger cross = BigInteger.valueOf(a.getX() - o.getX()).multiply(BigInteger.valueOf(p.getY() - o.getY()))
            .subtract(BigInteger.valueOf(a.getY() - o.getY()).multiply(BigInteger.valueOf(p.getX() - o.getX())));
        if (lowerChain ? cross.signum() <= 0 : cross.signum() >= 0) {
          hull.remove(hull.size() - 1);
        } else {
          break;
        }
      }
      hull.add(p);
    }
    return hull;
  }

  private static long latency(Random random) {
    return 40_000 + random.nextInt(50_000);
  }

  private static long clockB(long a, BigDecimal drift, long offsetNs) {
    // b = drift * (a - EPOCH) + EPOCH + offset: the clocks agree near EPOCH up to offsetNs.
    return drift.multiply(BigDecimal.valueOf(a - EPOCH_NS)).setScale(0, RoundingMode.FLOOR).longValueExact() + EPOCH_NS
        + offsetNs;
  }
}
