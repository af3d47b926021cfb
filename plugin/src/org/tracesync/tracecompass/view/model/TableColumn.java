// SPDX-License-Identifier: EPL-2.0
package org.tracesync.tracecompass.view.model;

import java.util.function.Function;

/** One column of a table of rows of type R: its header, how wide it likes to be, and the text of a row in it. */
public record TableColumn<R>(String header, int preferredWidth, boolean numeric, Function<R, String> text) {}
