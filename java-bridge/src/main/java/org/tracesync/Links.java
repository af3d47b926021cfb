// SPDX-License-Identifier: EPL-2.0
package org.tracesync;

import com.google.protobuf.InvalidProtocolBufferException;
import org.tracesync.proto.Link;
import org.tracesync.proto.LinkDetail;

/**
 * A link's detail (Lmin, Lmax, hull points, regression, matching statistics) travels inside the
 * snapshot as serialized bytes, parsed only for the link being looked at: that keeps a snapshot of
 * a thousand traces quick to cross JNI and parse.
 */
public final class Links {
  private Links() {}

  /** The detail of {@code link}; an empty one when it carries none. */
  public static LinkDetail detail(Link link) {
    try {
      return LinkDetail.parseFrom(link.getDetail());
    } catch (InvalidProtocolBufferException e) {
      // The native side wrote these bytes from a LinkDetail: a mismatch is a bug, not an input error.
      throw new IllegalStateException("link " + link.getA() + " - " + link.getB() + " has a damaged detail", e);
    }
  }
}
