// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.tracesync.proto.Line;
import org.tracesync.Links;
import org.tracesync.proto.Link;
import org.tracesync.proto.LinkDetail;
import org.tracesync.proto.Point;
import org.tracesync.tracecompass.snapshot.Decimals;

/**
 * What the plot of one link (a, b) shows, in plot coordinates. A message a -> b is a lower point (x = send time on a,
 * y = receive time on b), a message b -> a an upper point (DESIGN.md). Drawn as they are, with x near 1.7e18 ns and a
 * latency of microseconds, both hulls and every line would fall on one diagonal; so the plot shows
 * <ul>
 * <li>u = x - origin, nanoseconds since the start of the link's span on a's clock, and
 * <li>v = y - (alpha * x + beta), how far a point or line lies from the estimate, in nanoseconds,
 * </ul>
 * both computed exactly (long and BigDecimal arithmetic) before they become doubles: the differences are small even
 * when the timestamps are not. The estimate is the line v = 0; feasible lines pass below the lower points and above
 * the upper points.
 *
 * <p>Messages often fill a small part of a link's span (the real scp pair: 118 ms of 17.4 s), so by default the plot
 * covers the messages' hull vertices ({@link Range#MESSAGES}); {@link Range#SPAN} shows the whole span.
 *
 * <p>Vertically, the plot covers the lines (the band between Lmin and Lmax, and the estimate) and the bulk of the hull
 * vertices, not every vertex: the first and last messages of a direction are always hull vertices, however late they
 * came, and one delayed by a connection's set-up (17 ms in a real relay's run, against a +-50 us band) made the band a
 * line. A vertex is off the scale when it lies further outside the lines' extent than {@link #OFF_SCALE_FACTOR} times
 * the larger of the band's height and the upper quartile of the vertices' distances outside it; such vertices are
 * drawn clipped at the edge ({@link #clamped}) and counted ({@link #offScaleNote()}).
 */
public final class LinkPlotModel {
  /** A position in plot coordinates: u and v in nanoseconds. */
  public record PlotPoint(double u, double v) {}

  /** What the horizontal axis covers. */
  public enum Range {
    /** The hull vertices of both directions, with a small margin (the whole span when there are none). */
    MESSAGES,
    /** The link's whole span: everything the experiment saw of a's clock. */
    SPAN
  }

  /** A line of the link (Lmin, Lmax or the estimate) drawn across the span. */
  public record Segment(PlotPoint from, PlotPoint to) {
    /** v on this segment's line at {@code u}. */
    public double vAt(double u) {
      double t = (u - from.u()) / (to.u() - from.u());
      return from.v() + t * (to.v() - from.v());
    }
  }

  private final String title;
  private final Range range;
  private final List<Double> segmentStarts;
  private final long originNs;
  private final List<PlotPoint> lowerHull;
  private final List<PlotPoint> upperHull;
  private final Optional<Segment> lmin;
  private final Optional<Segment> lmax;
  private final Optional<Segment> estimate;
  private final double uMax;
  private final double vMin;
  private final double vMax;
  private final List<PlotPoint> offScale;

  /** How far outside the lines' extent, in typical distances (see the class comment), a vertex is off the scale. */
  public static final double OFF_SCALE_FACTOR = 3;

  private LinkPlotModel(String title, Range range, List<Double> segmentStarts, long originNs,
      List<PlotPoint> lowerHull, List<PlotPoint> upperHull, Optional<Segment> lmin, Optional<Segment> lmax,
      Optional<Segment> estimate, double uMax) {
    this.title = title;
    this.range = range;
    this.segmentStarts = segmentStarts;
    this.originNs = originNs;
    this.lowerHull = lowerHull;
    this.upperHull = upperHull;
    this.lmin = lmin;
    this.lmax = lmax;
    this.estimate = estimate;
    this.uMax = uMax;
    // Points outside the visible range do not stretch the vertical axis.
    List<Double> lines = Stream.of(segmentEnds(lmin), segmentEnds(lmax), segmentEnds(estimate)).flatMap(s -> s)
        .map(PlotPoint::v).toList();
    List<PlotPoint> vertices = Stream.concat(lowerHull.stream(), upperHull.stream())
        .filter(p -> p.u() >= 0 && p.u() <= uMax).toList();
    VerticalExtent extent = VerticalExtent.of(lines, vertices.stream().map(PlotPoint::v).toList());
    double margin = Math.max((extent.high() - extent.low()) * 0.08, 1);  // never a zero-height range
    this.vMin = extent.low() - margin;
    this.vMax = extent.high() + margin;
    this.offScale = vertices.stream().filter(p -> p.v() < vMin || p.v() > vMax).toList();
  }

  /**
   * What the vertical axis covers: the lines' extent, and the vertices but those further outside it than
   * OFF_SCALE_FACTOR typical distances (the class comment).
   */
  private record VerticalExtent(double low, double high) {
    static VerticalExtent of(List<Double> lines, List<Double> vertices) {
      if (lines.isEmpty() && vertices.isEmpty()) return new VerticalExtent(-1, 1);
      List<Double> all = lines.isEmpty() ? vertices : lines;
      double lineLow = all.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
      double lineHigh = all.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
      double[] outside = vertices.stream().mapToDouble(v -> Math.max(0, Math.max(v - lineHigh, lineLow - v)))
          .sorted().toArray();
      // Nearest rank, rounded up: with three vertices or fewer, the largest distance (nothing off the scale).
      double quartile = outside.length == 0 ? 0 : outside[(int) Math.ceil(0.75 * outside.length) - 1];
      double limit = OFF_SCALE_FACTOR * Math.max(lineHigh - lineLow, quartile);
      double low = lineLow;
      double high = lineHigh;
      for (double v : vertices) {
        if (limit > 0 && (v > lineHigh + limit || v < lineLow - limit)) continue;
        low = Math.min(low, v);
        high = Math.max(high, v);
      }
      return new VerticalExtent(low, high);
    }
  }

  public static LinkPlotModel empty(String title) {
    return new LinkPlotModel(title, Range.MESSAGES, List.of(), 0, List.of(), List.of(), Optional.empty(),
        Optional.empty(), Optional.empty(), 0);
  }

  /** The plot of {@code link} zoomed to its messages; {@code title} names its ends for people. */
  public static LinkPlotModel of(Link link, String title) {
    return of(link, title, Range.MESSAGES);
  }

  /** The plot of {@code link} over {@code range}; {@code title} names its ends for people. */
  public static LinkPlotModel of(Link link, String title, Range range) {
    LinkDetail detail = Links.detail(link);
    List<Point> all = Stream.concat(detail.getLowerHullPointsList().stream(), detail.getUpperHullPointsList().stream())
        .toList();
    long first;
    long last;
    if (link.getSpanLastNs() > link.getSpanFirstNs()) {
      first = link.getSpanFirstNs();
      last = link.getSpanLastNs();
    } else if (!all.isEmpty()) {
      first = all.stream().mapToLong(Point::getX).min().getAsLong();
      last = all.stream().mapToLong(Point::getX).max().getAsLong();
    } else {
      return empty(title);
    }
    first = Math.min(first, all.stream().mapToLong(Point::getX).min().orElse(first));
    last = Math.max(last, all.stream().mapToLong(Point::getX).max().orElse(last));
    if (range == Range.MESSAGES && !all.isEmpty()) {
      long low = all.stream().mapToLong(Point::getX).min().getAsLong();
      long high = all.stream().mapToLong(Point::getX).max().getAsLong();
      long margin = Math.max(1, (high - low) / 20);
      first = Math.max(first, low - margin);
      last = Math.min(last, high + margin);
    }
    if (last == first) last = first + 1;  // a single instant still gets a width
    final long origin = first;
    final long end = last;
    List<Double> segmentStarts = detail.getSegmentsList().stream().skip(1)
        .mapToLong(org.tracesync.proto.LinkSegment::getFirstNs).filter(x -> x > origin && x < end)
        .mapToObj(x -> (double) (x - origin)).toList();

    BigDecimal alpha = Decimals.exactOr(link.getAlpha(), BigDecimal.ONE);
    BigDecimal beta = Decimals.exactOr(link.getBeta(), BigDecimal.ZERO);
    Residuals residuals = new Residuals(first, alpha, beta);
    return new LinkPlotModel(title, range, segmentStarts, first,
        residuals.points(detail.getLowerHullPointsList()), residuals.points(detail.getUpperHullPointsList()),
        detail.hasLmin() ? Optional.of(residuals.segment(detail.getLmin(), first, last)) : Optional.empty(),
        detail.hasLmax() ? Optional.of(residuals.segment(detail.getLmax(), first, last)) : Optional.empty(),
        link.getQuality() == org.tracesync.proto.Quality.ABSENT ? Optional.empty()
            : Optional.of(new Segment(new PlotPoint(0, 0), new PlotPoint((double) (last - first), 0))),
        (double) (last - first));
  }

  /** The exact distance of (x, y) from the line y = slope * x + intercept, as v is measured. */
  public static BigDecimal residual(long x, BigDecimal y, BigDecimal slope, BigDecimal intercept) {
    return y.subtract(slope.multiply(BigDecimal.valueOf(x))).subtract(intercept);
  }

  public boolean isEmpty() {
    return lowerHull.isEmpty() && upperHull.isEmpty() && estimate.isEmpty();
  }

  public String title() {
    return title;
  }

  /** What the horizontal axis covers. */
  public Range range() {
    return range;
  }

  /**
   * Where a new segment of the link's piecewise clock model starts, in u, inside the visible range (none with one
   * segment).
   */
  public List<Double> segmentStarts() {
    return segmentStarts;
  }

  /** The instant of a's clock where u = 0, in ns since the epoch. */
  public long originNs() {
    return originNs;
  }

  /** Hull vertices of the a -> b messages, by increasing u. */
  public List<PlotPoint> lowerHull() {
    return lowerHull;
  }

  /** Hull vertices of the b -> a messages, by increasing u. */
  public List<PlotPoint> upperHull() {
    return upperHull;
  }

  /** The feasible line of minimal slope, when it exists. */
  public Optional<Segment> lmin() {
    return lmin;
  }

  /** The feasible line of maximal slope, when it exists. */
  public Optional<Segment> lmax() {
    return lmax;
  }

  /** The estimate, v = 0 across the span; empty for an absent link. */
  public Optional<Segment> estimate() {
    return estimate;
  }

  public double uMin() {
    return 0;
  }

  public double uMax() {
    return uMax;
  }

  public double vMin() {
    return vMin;
  }

  public double vMax() {
    return vMax;
  }

  /** The hull vertices in the visible time range that lie above or below the vertical axis, by increasing u. */
  public List<PlotPoint> offScale() {
    return offScale;
  }

  /** {@code point} moved onto the vertical axis' nearer end if it lies beyond it: where an off-scale vertex is drawn. */
  public PlotPoint clamped(PlotPoint point) {
    return new PlotPoint(point.u(), Math.max(vMin, Math.min(vMax, point.v())));
  }

  /**
   * What the plot says of its off-scale vertices: how many, above and below, and the farthest from the estimate, e.g.
   * "1 vertex off the scale (above, up to 17.02 ms)"; empty when there is none.
   */
  public String offScaleNote() {
    if (offScale.isEmpty()) return "";
    long above = offScale.stream().filter(p -> p.v() > vMax).count();
    long below = offScale.size() - above;
    PlotPoint farthest = offScale.stream().max(Comparator.comparingDouble(p -> Math.abs(p.v()))).orElseThrow();
    String where = above > 0 && below > 0 ? above + " above, " + below + " below" : above > 0 ? "above" : "below";
    return offScale.size() + (offScale.size() == 1 ? " vertex" : " vertices") + " off the scale (" + where
        + ", up to " + NanosecondFormat.format(farthest.v()) + ")";
  }

  private static Stream<PlotPoint> segmentEnds(Optional<Segment> segment) {
    return segment.stream().flatMap(s -> Stream.of(s.from(), s.to()));
  }

  /** Exact u and v for one link: relative to its origin and to its estimate. */
  private record Residuals(long origin, BigDecimal alpha, BigDecimal beta) {
    List<PlotPoint> points(List<Point> points) {
      return points.stream()
          .map(p -> new PlotPoint((double) (p.getX() - origin),
              residual(p.getX(), BigDecimal.valueOf(p.getY()), alpha, beta).doubleValue()))
          .sorted(Comparator.comparingDouble(PlotPoint::u)).toList();
    }

    Segment segment(Line line, long first, long last) {
      BigDecimal slope = Decimals.exactOr(line.getSlope(), BigDecimal.ONE);
      BigDecimal intercept = Decimals.exactOr(line.getIntercept(), BigDecimal.ZERO);
      return new Segment(at(slope, intercept, first), at(slope, intercept, last));
    }

    private PlotPoint at(BigDecimal slope, BigDecimal intercept, long x) {
      BigDecimal y = slope.multiply(BigDecimal.valueOf(x)).add(intercept);
      return new PlotPoint((double) (x - origin), residual(x, y, alpha, beta).doubleValue());
    }
  }
}
